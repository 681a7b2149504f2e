import 'reflect-metadata';
import { type DependencyContainer, container as rootContainer } from 'tsyringe';
import { type Lab, startLab } from '../lab/index.ts';
import { PLUGINS } from '../plugins/index.ts';
import { AuditWriter } from './audit/audit-writer.ts';
import { BrowserCapturer } from './browser/browser-capture.ts';
import { createBrowserCapturer } from './browser/index.ts';
import { ActionCheck } from './checks/action-check.ts';
import { AgentChecks } from './checks/agent-checks.ts';
import { ContentCheck } from './checks/content-check.ts';
import { DecisionSealer } from './checks/seal.ts';
import { ToolCallCheck } from './checks/tool-call-check.ts';
import { AppConfig } from './config.ts';
import { loadOrCreateSigningKey, SigningKey } from './contract/signing-keys.ts';
import { ChangeListener } from './db/change-listener.ts';
import { type Database, openDatabase } from './db/database.ts';
import { Knex } from './db/knex-token.ts';
import { DecisionEngines } from './decisions/decision-engines.ts';
import { EmailProtector } from './email/email-protector.ts';
import { EventBus } from './events/event-bus.ts';
import { DetectorSet } from './pipeline/run-detectors.ts';
import { PluginCatalog } from './plugins/registry.ts';
import { PdfRenderer } from './reports/pdf-renderer.ts';
import { ReputationService } from './reputation/reputation-service.ts';
import { InjectionRules } from './rules/injection-rules.ts';
import { loadRuleset, Ruleset } from './rules/ruleset.ts';
import { ScanHistory } from './scan/evidence.ts';
import { EvidenceCollector } from './scan/evidence-collector.ts';
import { PostgresScanHistory } from './scan/scan-history.ts';
import { ScanService } from './scan/scan-service.ts';
import { registerSources, type SourceSet } from './sources/index.ts';
import { subscribeEscalation } from './tickets/escalation.ts';
import { TicketService } from './tickets/ticket-service.ts';
import { ToolPinStore } from './tool-pins/tool-pin-store.ts';
import { BrandCatalog, HostingCatalog } from './url/catalogs.ts';
import { WebAccessEvaluator } from './web-access/web-access-evaluator.ts';
import { WebhookService } from './webhooks/webhook-service.ts';
import { GuardedWebhookTransport, WebhookTransport } from './webhooks/webhook-transport.ts';
import { attachPrincipalCache, PrincipalCache } from './workspaces/principal-cache.ts';

/** One running Preflight: its own DI container, database pool, rules and detectors. */
export interface Preflight {
  container: DependencyContainer;
  config: AppConfig;
  db: Database;
  /** Present in lab mode (PREFLIGHT_LAB): the offline internet every evidence source talks to. */
  lab?: Lab;
  sources: SourceSet;
  close(): Promise<void>;
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
  // Key lookups are cached while a listener hears every key/workspace change (revocations included) at once.
  let authListener: ChangeListener | undefined;
  const principals = new PrincipalCache(() => authListener?.listening ?? false);
  authListener = new ChangeListener(
    db.url,
    'preflight_auth',
    (payload) => principals.invalidate(payload),
    () => principals.flush(),
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
  container.registerInstance(BrandCatalog, new BrandCatalog(ruleset.brands));
  container.registerInstance(HostingCatalog, new HostingCatalog(ruleset.hosting));
  container.registerInstance(InjectionRules, ruleset.injection);
  container.registerInstance(DecisionEngines, new DecisionEngines(ruleset));
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
      await container.resolve(WebhookTransport).close();
      await browser.close();
      await reports.close();
      await sources.close();
      await lab?.close();
      if (!opts.db) await db.close();
    },
  };
}
