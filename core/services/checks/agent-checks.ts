import { inject, injectable } from 'tsyringe';
import { Ruleset } from '../../engine/rules/ruleset.ts';
import { parseTarget } from '../../engine/url/target.ts';
import { Knex } from '../../platform/db/knex-token.ts';
import { EventBus } from '../../platform/events/event-bus.ts';
import { blockedDecisionData } from '../../platform/events/event-payloads.ts';
import type { WorkspacePolicy } from '../agent-policy/workspace-policy.ts';
import { AuditWriter } from '../audit/audit-writer.ts';
import { ScanService } from '../scan/scan-service.ts';
import type { Principal } from '../workspaces/api-keys.ts';
import { consumeQuota, limitsFor } from '../workspaces/quotas.ts';
import { ActionCheck, type ActionCheckInput, type DeepScanSummary } from './action-check.ts';

/** What a deep check needs to know about the caller's workspace. */
export interface ScanWorkspace {
  plan: string;
  campaignTaggingEnabled: boolean;
}

import { ContentCheck, type ContentCheckInput } from './content-check.ts';
import type { CallContext, Sealed } from './seal.ts';
import { ToolCallCheck, type ToolCallInput } from './tool-call-check.ts';

export type GuardrailInput =
  | { kind: 'prompt'; input: ContentCheckInput }
  | { kind: 'action'; input: ActionCheckInput }
  | { kind: 'tool_call'; input: ToolCallInput };

/**
 * The guardrail surfaces as the API, MCP and CLI use them: run the check, then commit its audit event before the
 * verdict is handed back. Every door goes through here, so no door can forget the audit.
 */
@injectable()
export class AgentChecks {
  constructor(
    @inject(ContentCheck) private readonly contentCheck: ContentCheck,
    @inject(ActionCheck) private readonly actionCheck: ActionCheck,
    @inject(ToolCallCheck) private readonly toolCallCheck: ToolCallCheck,
    @inject(AuditWriter) private readonly audit: AuditWriter,
    @inject(Ruleset) private readonly ruleset: Ruleset,
    @inject(ScanService) private readonly scans: ScanService,
    @inject(Knex) private readonly knex: Knex,
    @inject(EventBus) private readonly events: EventBus,
  ) {}

  content(input: ContentCheckInput, call: CallContext) {
    return this.audited(this.contentCheck.check(input, call));
  }

  /**
   * Depth `deep` also runs the full scan (cached results count), folds its verdict in, and spends one unit of the
   * plan's daily scan quota first (429 when it is used up); fast checks spend nothing.
   */
  async action(input: ActionCheckInput, call: CallContext, policy: WorkspacePolicy, workspace?: ScanWorkspace) {
    const deep = input.depth === 'deep' ? await this.deepScan(input.url, call, workspace) : undefined;
    return this.audited(this.actionCheck.check(input, call, policy, deep));
  }

  private async deepScan(url: string, call: CallContext, workspace?: ScanWorkspace): Promise<DeepScanSummary> {
    if (call.workspaceId) {
      const limits = limitsFor(this.ruleset.plans, workspace?.plan);
      await consumeQuota(this.knex, call.workspaceId, 'scan', limits.scan_quota_daily);
    }
    const result = await this.scans.scan(
      parseTarget(url),
      { force_scan: false, unmetered: true },
      {
        workspaceId: call.workspaceId,
        plan: workspace?.plan,
        campaignTaggingEnabled: workspace?.campaignTaggingEnabled ?? false,
        actor: call.actor,
        requestId: call.requestId,
      },
    );
    return {
      risk_level: result.risk_level,
      risk_score: result.score,
      flags: result.flags,
      malicious: result.risk_level === 'high' || result.risk_level === 'critical',
      scan_id: result.scan_id,
      evidencepack_id: result.tabs.detection.evidencepack.id,
      cached: result.cached,
    };
  }

  toolCall(input: ToolCallInput, call: CallContext, policy: WorkspacePolicy) {
    return this.audited(this.toolCallCheck.check(input, call, policy));
  }

  /** POST /agent/guardrail: the selected check's response plus `kind`. */
  async guardrail(request: GuardrailInput, call: CallContext, policy: WorkspacePolicy, workspace?: ScanWorkspace) {
    const response =
      request.kind === 'prompt'
        ? await this.content(request.input, call)
        : request.kind === 'tool_call'
          ? await this.toolCall(request.input, call, policy)
          : await this.action(request.input, call, policy, workspace);
    return { kind: request.kind, ...response };
  }

  /** GET /agent/policy. */
  policyView(policy: WorkspacePolicy, workspace: NonNullable<Principal['workspace']>) {
    return {
      // Only switches the workspace really has: the injection screen, the tool policy and deep checks always run,
      // so reporting them as flags (constant true) would suggest they could be turned off.
      flags: {
        agent_checks: workspace.agentChecksEnabled,
        connector_governance: policy.connectors !== null,
        custom_high_impact_tools: policy.high_impact_tools !== null,
        campaign_tagging: workspace.campaignTaggingEnabled,
      },
      tool_policy: policy.tool_policy,
      guardrail_enabled: workspace.agentChecksEnabled,
      connectors: policy.connectors,
      high_impact_tools: policy.high_impact_tools ?? this.ruleset.toolPolicy.high_impact_tools,
      ruleset_hash: this.ruleset.hash,
    };
  }

  private async audited<R>(pending: Promise<{ response: R } & Sealed>): Promise<R> {
    const { response, audit } = await pending;
    if (audit) await this.audit.write(audit);
    if (audit?.outcome === 'block') {
      await this.events.publish('decision.blocked', audit.workspace_id, blockedDecisionData(audit, response));
    }
    return response;
  }
}
