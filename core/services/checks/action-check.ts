import { inject, injectable } from 'tsyringe';
import type { DecisionContract } from '../../engine/contract/decision-contract.ts';
import type { Decision } from '../../engine/decisions/decision-engine.ts';
import { DecisionEngines } from '../../engine/decisions/decision-engines.ts';
import { PluginCatalog } from '../../engine/pipeline/plugin-catalog.ts';
import type { DetectorSet } from '../../engine/pipeline/run-detectors.ts';
import { flatCanonicalJson, type Verdict } from '../../engine/rules/ruleset.ts';
import type { RiskLevel } from '../../engine/scoring/risk-level.ts';
import { Scorer } from '../../engine/scoring/score-breakdown.ts';
import { HostingCatalog } from '../../engine/url/catalogs.ts';
import { parseTarget, type Target } from '../../engine/url/target.ts';
import { type Reputation, ReputationService } from '../../evidence/reputation/reputation-service.ts';
import { type ConnectorStatus, connectorStatus } from '../agent-policy/tool-policy.ts';
import type { WorkspacePolicy } from '../agent-policy/workspace-policy.ts';
import { AgentSurface } from './agent-surface.ts';
import { flagExplanations, type InjectionSummary, promptInjectionView } from './injection-summary.ts';
import { reasonsOf } from './reasons.ts';
import type { CallContext, Sealed } from './seal.ts';

export const INTENTS = [
  'visit',
  'enter_credentials',
  'pay',
  'download',
  'connect_tool',
  'sign_transaction',
  'share_data',
] as const;
export type Intent = (typeof INTENTS)[number];
export const DEPTHS = ['fast', 'deep'] as const;
export type Depth = (typeof DEPTHS)[number];

export interface ActionCheckInput {
  url: string;
  intent: Intent;
  depth: Depth;
  connector?: string;
  page_text?: string;
  prompt?: string;
}

export interface UrlVerdict {
  /** The identity judged: the registrable domain, a free-hosting tenant's own site, or the IP. */
  domain: string;
  /** A threat-feed category (`phishing`, `malware`…), `known_good`, `suspicious` or `unknown`. */
  category: string;
  risk: RiskLevel;
  /** What the destination's reputation alone advises. */
  action: Verdict;
}

export interface ActionCheckResponse {
  agent_decision: Verdict;
  intent: Intent;
  depth: Depth;
  risk_score: number;
  risk_level: RiskLevel;
  reasons: string[];
  warnings: string[];
  flags: string[];
  flag_explanations: ReturnType<typeof flagExplanations>;
  prompt_injection: {
    detected: boolean;
    severity: InjectionSummary['severity'];
    findings: { category: string; marker: string; severity: string; field: string }[];
  };
  url_verdict: UrlVerdict;
  ttl_seconds: number;
  decision: DecisionContract;
  deep_scan?: DeepScanSummary;
}

/** The full scan's verdict as a deep action check reports it (spec: risk_level, risk_score, flags, malicious). */
export interface DeepScanSummary {
  risk_level: string;
  risk_score: number;
  flags: string[];
  malicious: boolean;
  scan_id: number;
  evidencepack_id: string;
  cached: boolean;
}

/** How long the fast check may wait for Postgres before it answers from the URL alone. */
const REPUTATION_BUDGET_MS = 800;

/** POST /agent/check-action at depth `fast`: reputation + URL lexicon + intent + injection screen. No live fetch. */
@injectable()
export class ActionCheck {
  constructor(
    @inject(AgentSurface) private readonly surface: AgentSurface,
    @inject(DecisionEngines) private readonly engines: DecisionEngines,
    @inject(Scorer) private readonly scorer: Scorer,
    @inject(ReputationService) private readonly reputation: ReputationService,
    @inject(PluginCatalog) private readonly catalog: PluginCatalog,
    @inject(HostingCatalog) private readonly hosting: HostingCatalog,
  ) {}

  async check(
    input: ActionCheckInput,
    call: CallContext,
    policy: Pick<WorkspacePolicy, 'connectors'>,
    deep?: DeepScanSummary,
  ): Promise<{ response: ActionCheckResponse } & Sealed> {
    const target = parseTarget(input.url);
    const texts: Record<string, string> = {};
    if (input.page_text) texts.page_text = input.page_text;
    if (input.prompt) texts.prompt = input.prompt;

    // The reputation lookup runs alongside the detectors; the assessment awaits it.
    let lookup!: Promise<Reputation>;
    let reputation!: Reputation;
    const { runs, flags, injection, assessment, verdict, reasons, sealed } = await this.surface.evaluate(
      {
        surface: 'agent_action',
        rules: 'action',
        detect: { url: input.url, target, texts },
        // Rule 5: a deep check folds the full scan's flags into the decision.
        ...(deep ? { extraFlags: deep.flags } : {}),
        alongside: () => {
          lookup = this.reputation.lookup(target, REPUTATION_BUDGET_MS, call.workspaceId);
          lookup.catch(() => {}); // awaited in assess; this only keeps an early rejection from going unhandled
        },
        assess: async ({ flags, injection }) => {
          reputation = await lookup;
          // The agent screen's flags score as the screen; every other flag (a deep scan's too) is the destination's.
          const screenFlags = flags.filter((f) => this.catalog.rolesOf(f).agentScreen);
          const destinationFlags = flags.filter((f) => !this.catalog.rolesOf(f).agentScreen);
          const destination = await this.destination(target, reputation, destinationFlags);
          const screen = await this.scorer.screenPoints(injection.severity, screenFlags);
          const riskScore = Math.max(destination.score, screen, deep?.risk_score ?? 0);
          const riskLevel = this.scorer.riskLevelOf(riskScore);
          const connector = connectorStatus(input.connector, policy.connectors);
          return {
            destination,
            riskScore,
            riskLevel,
            connector,
            facts: {
              intent: input.intent,
              high_impact_intent: input.intent !== 'visit',
              known_good: reputation.knownGood,
              destination_malicious: destination.malicious,
              destination_category: destination.verdict.category,
              destination_risk_level: destination.verdict.risk,
              destination_score: destination.score,
              reputation_available: reputation.available,
              injection_severity: injection.severity,
              connector_status: connector,
              risk_score: riskScore,
              risk_level: riskLevel,
              deep_scan_ran: deep !== undefined,
              deep_malicious: deep?.malicious ?? false,
              deep_risk_level: deep?.risk_level ?? 'none',
              flags,
            },
            reasons: (decision: Decision) => {
              const out = reasonsOf(decision, 'default_allow: No decision rule matched (spec rule 4: otherwise allow)');
              for (const hit of reputation.feedHits.slice(0, 3)) {
                out.push(`threat feed ${hit.source}: ${hit.kind} ${hit.value} listed as ${hit.category}`);
              }
              const prior = reputation.priorScan;
              if (prior) {
                out.push(
                  `earlier scan ${prior.scan_id} of ${target.host} (${prior.scanned_at}): ${prior.risk_level}, score ${prior.score}`,
                );
              }
              return out;
            },
            input: flatCanonicalJson(input),
            maxTtlSeconds: this.ttl(reputation, destination.malicious),
          };
        },
      },
      call,
    );
    const { destination, riskScore, riskLevel, connector } = assessment;
    const warnings = this.warnings(target, reputation, connector, input.connector, runs);
    return {
      ...sealed,
      response: {
        agent_decision: verdict,
        intent: input.intent,
        depth: input.depth,
        risk_score: riskScore,
        risk_level: riskLevel,
        reasons,
        warnings,
        flags,
        flag_explanations: flagExplanations(runs, this.catalog, this.scorer),
        prompt_injection: promptInjectionView(injection),
        url_verdict: destination.verdict,
        ttl_seconds: sealed.decision.ttl_seconds,
        decision: sealed.decision,
        ...(deep ? { deep_scan: deep } : {}),
      },
    };
  }

  private async destination(target: Target, reputation: Reputation, destinationFlags: string[]) {
    const malicious = reputation.feedHits.length > 0;
    const flagPoints = await this.scorer.agentPoints(destinationFlags, { known_good: reputation.knownGood });
    // An earlier full scan of this host in the workspace knows more than the URL's lexicon: its score counts.
    const score = malicious ? 100 : Math.max(flagPoints, Math.min(100, reputation.priorScan?.score ?? 0));
    const risk = this.scorer.riskLevelOf(score);
    const category = malicious
      ? reputation.feedHits[0]!.category
      : reputation.knownGood && destinationFlags.length === 0
        ? 'known_good'
        : risk !== 'low'
          ? 'suspicious'
          : 'unknown';
    // url_verdict.action: rules/decisions/url-verdict.json through the same (memoised) engine as every verdict.
    const { verdict: action } = await this.engines.for('url_verdict').decide({
      destination_malicious: malicious,
      destination_category: category,
      destination_risk_level: risk,
      destination_score: score,
      known_good: reputation.knownGood,
      flags: destinationFlags,
    });
    const domain = this.hosting.freeHostingFor(target)?.tenantSite ?? target.site;
    return { malicious, score, verdict: { domain, category, risk, action } satisfies UrlVerdict };
  }

  /** A verdict resting on partial evidence should be re-asked soon; a settled one may be cached for the full TTL. */
  private ttl(reputation: Reputation, malicious: boolean): number | undefined {
    if (!reputation.available) return 30;
    if (malicious || reputation.knownGood) return undefined; // the configured ceiling
    return 120;
  }

  private warnings(
    target: Target,
    reputation: Reputation,
    connector: ConnectorStatus,
    connectorName: string | undefined,
    runs: Awaited<ReturnType<DetectorSet['run']>>,
  ): string[] {
    const out: string[] = [];
    if (reputation.warning) out.push(reputation.warning);
    const tld = this.hosting.suspiciousTld(target.host);
    if (tld) out.push(`.${tld} is a top-level domain over-represented in phishing feeds`);
    const free = this.hosting.freeHostingFor(target);
    if (free) out.push(`${target.host} is a tenant of the shared platform ${free.provider}: judged as its own site`);
    if (connector === 'unsanctioned') out.push(`connector ${connectorName} is not on the workspace's sanctioned list`);
    for (const run of runs) if (run.skipped) out.push(`detector ${run.pluginId} skipped: ${run.skipped.reason}`);
    return out;
  }
}
