import { inject, injectable } from 'tsyringe';
import { canonicalJson } from '../../engine/contract/canonical-json.ts';
import type { DecisionContract } from '../../engine/contract/decision-contract.ts';
import { DecisionEngine } from '../../engine/decisions/decision-engine.ts';
import { Ruleset, WEB_ACCESS_ORDER, type WebAccessVerdict } from '../../engine/rules/ruleset.ts';
import { EventBus } from '../../platform/events/event-bus.ts';
import { blockedDecisionData } from '../../platform/events/event-payloads.ts';
import { AuditWriter } from '../audit/audit-writer.ts';
import { ActionCheck, type ActionCheckResponse, type Intent, type UrlVerdict } from '../checks/action-check.ts';
import { reasonsOf } from '../checks/reasons.ts';
import { type CallContext, DecisionSealer } from '../checks/seal.ts';

export interface WebAccessInput {
  url: string;
  intent: Intent;
  page_text?: string;
}

export interface WebAccessResponse {
  action: WebAccessVerdict;
  coaching_message: string;
  url: string;
  intent: Intent;
  risk_score: number;
  risk_level: string;
  reasons: string[];
  warnings: string[];
  flags: string[];
  flag_explanations: ActionCheckResponse['flag_explanations'];
  url_verdict: UrlVerdict;
  prompt_injection: ActionCheckResponse['prompt_injection'];
  ttl_seconds: number;
  decision: DecisionContract;
}

/** Categories the reputation lookup gives destinations that are not threat-feed entries. */
const NOT_A_FEED_CATEGORY = new Set(['known_good', 'suspicious', 'unknown']);

const DEFAULT_COACHING =
  'No known risk was found for {domain}. Stay alert: if the page asks for a password, a code or a payment you did not expect, stop and check the address.';

/**
 * POST /web-access/evaluate: a person's browser or a proxy asks before a page opens. The destination is judged by
 * the fast action check (reputation, URL detectors, the injection screen over the page text); the person's verdict
 * (allow | warn | block) and the coaching message come from rules/decisions/web-access.json. Signed and audited
 * like the agent checks, under surface `web_access`.
 */
@injectable()
export class WebAccessEvaluator {
  private readonly engine: DecisionEngine<WebAccessVerdict>;
  private readonly coaching: Map<string, string>;

  constructor(
    @inject(ActionCheck) private readonly actionCheck: ActionCheck,
    @inject(DecisionSealer) private readonly sealer: DecisionSealer,
    @inject(AuditWriter) private readonly audit: AuditWriter,
    @inject(EventBus) private readonly events: EventBus,
    @inject(Ruleset) ruleset: Ruleset,
  ) {
    this.engine = new DecisionEngine<WebAccessVerdict>(ruleset.webAccess, WEB_ACCESS_ORDER);
    this.coaching = new Map(ruleset.webAccess.map((r) => [r.name, r.event.params.coaching_message]));
  }

  async evaluate(input: WebAccessInput, call: CallContext): Promise<WebAccessResponse> {
    // The action check's own contract and audit event are not used: this surface signs and audits its own verdict.
    const { response: fast } = await this.actionCheck.check(
      {
        url: input.url,
        intent: input.intent,
        depth: 'fast',
        ...(input.page_text !== undefined ? { page_text: input.page_text } : {}),
      },
      call,
      { connectors: null },
    );
    const verdict = fast.url_verdict;
    const decision = await this.engine.decide({
      intent: input.intent,
      high_impact_intent: input.intent !== 'visit',
      url_category: verdict.category,
      known_good: verdict.category === 'known_good',
      listed_in_feed: !NOT_A_FEED_CATEGORY.has(verdict.category),
      destination_risk_level: verdict.risk,
      risk_score: fast.risk_score,
      risk_level: fast.risk_level,
      injection_severity: fast.prompt_injection.severity,
      agent_decision: fast.agent_decision,
      flags: fast.flags,
    });
    const template = (decision.winner && this.coaching.get(decision.winner.name)) ?? DEFAULT_COACHING;
    const coaching = template.replaceAll('{domain}', verdict.domain).replaceAll('{category}', verdict.category);
    // Feed entries and earlier scans the fast check named stay as evidence after the web-access rule lines.
    const evidence = fast.reasons.filter((r) => r.startsWith('threat feed ') || r.startsWith('earlier scan '));
    const reasons = [
      ...reasonsOf(decision, 'default_allow: No web-access rule matched; no known risk for this destination'),
      ...evidence,
    ];
    const sealed = this.sealer.seal(
      {
        surface: 'web_access',
        verdict: decision.verdict,
        flags: fast.flags,
        reasons,
        input: canonicalJson(input),
        maxTtlSeconds: fast.ttl_seconds,
      },
      call,
    );
    if (sealed.audit) await this.audit.write(sealed.audit);
    if (sealed.audit && decision.verdict === 'block') {
      const data = blockedDecisionData(sealed.audit, { risk_level: fast.url_verdict.risk });
      await this.events.publish('decision.blocked', sealed.audit.workspace_id, data);
    }
    return {
      action: decision.verdict,
      coaching_message: coaching,
      url: input.url,
      intent: input.intent,
      risk_score: fast.risk_score,
      risk_level: fast.risk_level,
      reasons,
      warnings: fast.warnings,
      flags: fast.flags,
      flag_explanations: fast.flag_explanations,
      url_verdict: verdict,
      prompt_injection: fast.prompt_injection,
      ttl_seconds: sealed.decision.ttl_seconds,
      decision: sealed.decision,
    };
  }
}
