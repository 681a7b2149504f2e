import { inject, injectable } from 'tsyringe';
import type { WorkspacePolicy } from '../agent-policy/workspace-policy.ts';
import { AuditWriter } from '../audit/audit-writer.ts';
import { Ruleset } from '../rules/ruleset.ts';
import type { Principal } from '../workspaces/api-keys.ts';
import { ActionCheck, type ActionCheckInput } from './action-check.ts';
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
  ) {}

  content(input: ContentCheckInput, call: CallContext) {
    return this.audited(this.contentCheck.check(input, call));
  }

  action(input: ActionCheckInput, call: CallContext, policy: WorkspacePolicy) {
    return this.audited(this.actionCheck.check(input, call, policy));
  }

  toolCall(input: ToolCallInput, call: CallContext, policy: WorkspacePolicy) {
    return this.audited(this.toolCallCheck.check(input, call, policy));
  }

  /** POST /agent/guardrail: the selected check's response plus `kind`. */
  async guardrail(request: GuardrailInput, call: CallContext, policy: WorkspacePolicy) {
    const response =
      request.kind === 'prompt'
        ? await this.content(request.input, call)
        : request.kind === 'tool_call'
          ? await this.toolCall(request.input, call, policy)
          : await this.action(request.input, call, policy);
    return { kind: request.kind, ...response };
  }

  /** GET /agent/policy. */
  policyView(policy: WorkspacePolicy, workspace: NonNullable<Principal['workspace']>) {
    return {
      flags: {
        agent_checks: workspace.agentChecksEnabled,
        prompt_injection_screen: true,
        tool_policy: true,
        connector_governance: policy.connectors !== null,
        custom_high_impact_tools: policy.high_impact_tools !== null,
        deep_checks: false,
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
    return response;
  }
}
