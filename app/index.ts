import 'reflect-metadata';
import { container as rootContainer } from 'tsyringe';
import type { AppHandle } from '../core/app-handle.ts';
import { AppConfig } from '../core/config.ts';
import { closeSigner } from '../core/engine/contract/decision-contract.ts';
import { DecisionEngines } from '../core/engine/decisions/decision-engines.ts';
import { PluginCatalog } from '../core/engine/pipeline/plugin-catalog.ts';
import { DetectorSet } from '../core/engine/pipeline/run-detectors.ts';
import { InjectionRules } from '../core/engine/rules/injection-rules.ts';
import { loadRuleset, Ruleset } from '../core/engine/rules/ruleset.ts';
import { Scorer } from '../core/engine/scoring/score-breakdown.ts';
import { BrandCatalog, HostingCatalog } from '../core/engine/url/catalogs.ts';
import { BrowserCapturer } from '../core/evidence/browser/browser-capture.ts';
import { createBrowserCapturer } from '../core/evidence/browser/index.ts';
import { ReputationService } from '../core/evidence/reputation/reputation-service.ts';
import { registerSources } from '../core/evidence/sources/index.ts';
import { ChangeListener } from '../core/platform/db/change-listener.ts';
import { type Database, openDatabase } from '../core/platform/db/database.ts';
import { Knex } from '../core/platform/db/knex-token.ts';
import { EventBus } from '../core/platform/events/event-bus.ts';
import { PdfRenderer } from '../core/reports/pdf-renderer.ts';
import { AuditWriter } from '../core/services/audit/audit-writer.ts';
import { ActionCheck } from '../core/services/checks/action-check.ts';
import { AgentChecks } from '../core/services/checks/agent-checks.ts';
import { AgentSurface } from '../core/services/checks/agent-surface.ts';
import { ContentCheck } from '../core/services/checks/content-check.ts';
import { DecisionSealer } from '../core/services/checks/seal.ts';
import { ToolCallCheck } from '../core/services/checks/tool-call-check.ts';
import { EmailProtector } from '../core/services/email/email-protector.ts';
import { ScanHistory } from '../core/services/scan/evidence.ts';
import { EvidenceCollector } from '../core/services/scan/evidence-collector.ts';
import { PostgresScanHistory } from '../core/services/scan/scan-history.ts';
import { ScanService } from '../core/services/scan/scan-service.ts';
import { loadOrCreateSigningKey, SigningKey } from '../core/services/signing/signing-keys.ts';
import { subscribeEscalation } from '../core/services/tickets/escalation.ts';
import { TicketService } from '../core/services/tickets/ticket-service.ts';
import { ToolPinStore } from '../core/services/tool-pins/tool-pin-store.ts';
import { WebAccessEvaluator } from '../core/services/web-access/web-access-evaluator.ts';
import { WebhookService } from '../core/services/webhooks/webhook-service.ts';
import { WebhookSubscriptions } from '../core/services/webhooks/webhook-subscriptions.ts';
import { GuardedWebhookTransport, WebhookTransport } from '../core/services/webhooks/webhook-transport.ts';
import { attachPrincipalCache, PrincipalCache } from '../core/services/workspaces/principal-cache.ts';
import { type Lab, startLab } from '../lab/index.ts';
import { PLUGINS } from '../plugins/index.ts';

/** One running Preflight: its own DI container, database pool, rules and detectors. */
export interface Preflight extends AppHandle {
  /** Present in lab mode (PREFLIGHT_LAB): the offline internet every evidence source talks to. */
  lab?: Lab;
}

export function pluginCatalog(): PluginCatalog {
  return new PluginCatalog(PLUGINS);
}

/**
 * Builds the app. Rules are loaded and validated before the database is touched, so a bad rules file stops the
 * boot early with the file, pointer and reason.
 */
export async function createPreflight(config: AppConfig, opts: { db?: Database } = {}): Promise<Preflight> {
  const catalog = pluginCatalog();
  const ruleset = loadRuleset(config.rulesDir, catalog);
  const db = opts.db ?? (await openDatabase(config));
  const signingKey = await loadOrCreateSigningKey(db.knex);
  const lab = config.labSitesDir ? await startLab({ sitesDir: config.labSitesDir }) : undefined;
  // Key lookups and webhook subscriptions are cached while one listener hears every change to them (revocations
  // included) at once.
  let authListener: ChangeListener | undefined;
  const live = () => authListener?.listening ?? false;
  const principals = new PrincipalCache(live);
  const webhookSubscriptions = new WebhookSubscriptions(live);
  authListener = new ChangeListener(
    db.url,
    {
      preflight_auth: (payload) => principals.invalidate(payload),
      preflight_webhooks: (payload) => webhookSubscriptions.invalidate(payload),
    },
    () => {
      principals.flush();
      webhookSubscriptions.flush();
    },
  );
  await authListener.start();
  attachPrincipalCache(db.knex, principals);

  // A child container per app, never the global registry: two apps in one process (tests) stay apart.
  const container = rootContainer.createChildContainer();
  container.registerInstance(AppConfig, config);
  container.registerInstance(Knex, db.knex);
  container.registerInstance(PluginCatalog, catalog);
  container.registerInstance(Ruleset, ruleset);
  container.registerInstance(SigningKey, signingKey);
  container.registerInstance(PrincipalCache, principals);
  container.registerInstance(WebhookSubscriptions, webhookSubscriptions);
  container.registerInstance(BrandCatalog, new BrandCatalog(ruleset.brands));
  container.registerInstance(HostingCatalog, new HostingCatalog(ruleset.hosting));
  container.registerInstance(InjectionRules, ruleset.injection);
  container.registerInstance(DecisionEngines, new DecisionEngines(ruleset));
  container.registerInstance(Scorer, new Scorer(ruleset));
  container.registerInstance(AuditWriter, new AuditWriter(db.knex));
  // Evidence sources are registered before detectors are created, since detectors resolve them as deps.
  const cache = config.sources.cacheTtlMs === undefined ? {} : { cacheTtlMs: config.sources.cacheTtlMs };
  const sourcesConfig = lab
    ? lab.sourcesConfig(cache)
    : { dnsServers: config.sources.dnsServers, hostIntelKey: config.sources.hostIntelKey, ...cache };
  const sources = registerSources(container, sourcesConfig);
  // Chromium when installed (the browser goes through the same SSRF guard as the clients), else degraded captures.
  const browser = createBrowserCapturer({ sources: sourcesConfig });
  container.registerInstance(BrowserCapturer, browser);
  // Reports render in their own Chromium (JavaScript and network off), launched on the first report.
  const reports = new PdfRenderer();
  container.registerInstance(PdfRenderer, reports);
  container.registerSingleton(PostgresScanHistory);
  container.register(ScanHistory, { useFactory: (c) => c.resolve(PostgresScanHistory) });
  container.registerInstance(DetectorSet, new DetectorSet(catalog, container, ruleset.detectors));
  container.registerSingleton(ReputationService);
  container.registerSingleton(DecisionSealer);
  container.registerSingleton(AgentSurface);
  container.registerSingleton(ContentCheck);
  container.registerSingleton(ActionCheck);
  container.registerSingleton(ToolPinStore);
  container.registerSingleton(ToolCallCheck);
  container.registerSingleton(AgentChecks);
  container.registerSingleton(EvidenceCollector);
  container.registerSingleton(ScanService);
  container.registerSingleton(WebAccessEvaluator);
  container.registerSingleton(EmailProtector);
  // Workspace events (scan.completed, scan.failed, decision.blocked, ticket.created) and their subscribers.
  const events = new EventBus();
  container.registerInstance(EventBus, events);
  container.registerSingleton(TicketService);
  subscribeEscalation(events, container.resolve(TicketService), ruleset.escalation);
  // Webhooks go through the SSRF guard; only configured ip:port receivers may sit on refused addresses.
  container.registerInstance(
    WebhookTransport,
    new GuardedWebhookTransport({ allowEndpoints: config.webhookAllowEndpoints ?? [] }),
  );
  container.registerSingleton(WebhookService);
  events.subscribe((event) => container.resolve(WebhookService).enqueue(event));

  return {
    container,
    config,
    db,
    lab,
    sources,
    async close() {
      await authListener.close();
      await closeSigner(signingKey);
      await container.resolve(WebhookTransport).close();
      await browser.close();
      await reports.close();
      await sources.close();
      await lab?.close();
      if (!opts.db) await db.close();
    },
  };
}
