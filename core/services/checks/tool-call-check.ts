import { inject, injectable } from 'tsyringe';
import type { DecisionContract } from '../../engine/contract/decision-contract.ts';
import type { Decision } from '../../engine/decisions/decision-engine.ts';
import { PluginCatalog } from '../../engine/pipeline/plugin-catalog.ts';
import { canonicalJson, Ruleset, type Verdict } from '../../engine/rules/ruleset.ts';
import type { RiskLevel } from '../../engine/scoring/risk-level.ts';
import { Scorer } from '../../engine/scoring/score-breakdown.ts';
import {
  type ConnectorStatus,
  connectorOf,
  connectorStatus,
  evaluateToolPolicy,
  highImpactMatch,
  type ToolPolicyOutcome,
} from '../agent-policy/tool-policy.ts';
import type { WorkspacePolicy } from '../agent-policy/workspace-policy.ts';
import {
  definitionHashes,
  type PinObservation,
  type ToolDefinition,
  ToolPinStore,
} from '../tool-pins/tool-pin-store.ts';
import { AgentSurface } from './agent-surface.ts';
import { flagExplanations, type InjectionSummary, promptInjectionView } from './injection-summary.ts';
import { stringLeaves } from './json-leaves.ts';
import { reasonsOf } from './reasons.ts';
import type { CallContext, Sealed } from './seal.ts';

export interface ToolCallInput {
  tool: string;
  arguments?: Record<string, unknown>;
  connector?: string;
  prompt?: string;
  intent?: string;
  /** The tool's MCP definition (description, input schema): pinned per workspace on first sight. */
  tool_definition?: ToolDefinition;
}

export interface ToolCallResponse {
  agent_decision: Verdict;
  tool: string;
  tool_policy: ToolPolicyOutcome;
  connector: { name: string | null; status: ConnectorStatus };
  high_impact: { matched: boolean; pattern: string | null };
  risk_score: number;
  risk_level: RiskLevel;
  reasons: string[];
  warnings: string[];
  flags: string[];
  flag_explanations: ReturnType<typeof flagExplanations>;
  prompt_injection: {
    detected: boolean;
    severity: InjectionSummary['severity'];
    /** `field` is the JSON path of the argument that carried the marker (`$.body.text`), or `prompt`. */
    findings: { category: string; marker: string; severity: string; field: string }[];
  };
  ttl_seconds: number;
  decision: DecisionContract;
  /** Present when the call carried `tool_definition`: how it compares with the workspace's pin. */
  tool_pin?: PinObservation;
}

/** A tool call: workspace tool policy + connector governance + injection screen of the arguments + high impact. */
@injectable()
export class ToolCallCheck {
  constructor(
    @inject(AgentSurface) private readonly surface: AgentSurface,
    @inject(Ruleset) private readonly ruleset: Ruleset,
    @inject(Scorer) private readonly scorer: Scorer,
    @inject(PluginCatalog) private readonly catalog: PluginCatalog,
    @inject(ToolPinStore) private readonly pins: ToolPinStore,
  ) {}

  async check(
    input: ToolCallInput,
    call: CallContext,
    policy: WorkspacePolicy,
  ): Promise<{ response: ToolCallResponse } & Sealed> {
    const toolPolicy = evaluateToolPolicy(input.tool, policy.tool_policy);
    const connectorName = connectorOf(input.tool, input.connector);
    const connector = connectorStatus(connectorName, policy.connectors);
    const highImpact = highImpactMatch(
      input.tool,
      policy.high_impact_tools ?? this.ruleset.toolPolicy.high_impact_tools,
    );

    const { leaves, truncated } = stringLeaves(input.arguments ?? {});
    const texts: Record<string, string> = Object.fromEntries(leaves);
    if (input.prompt) texts.prompt = input.prompt;
    const pin = input.tool_definition
      ? await this.observePin(input.tool, connectorName ?? '', input.tool_definition, call)
      : undefined;
    const { runs, flags, injection, assessment, verdict, reasons, sealed } = await this.surface.evaluate(
      {
        surface: 'agent_tool_call',
        rules: 'tool_call',
        detect: {
          texts,
          ...(pin && input.tool_definition
            ? {
                tool: {
                  name: input.tool,
                  server: pin.server,
                  ...input.tool_definition,
                  pin: { status: pin.status, admin_approved: pin.admin_approved, changed: pin.changed },
                },
              }
            : {}),
        },
        assess: async ({ flags, injection }) => ({
          // The highest part: the screen (over every flag), a blocking tool policy, the tool definition's flags.
          riskScore: Math.max(
            await this.scorer.screenPoints(injection.severity, flags),
            toolPolicy.decision === 'block' ? 100 : 0,
            await this.scorer.agentPoints(flags.filter((f) => this.catalog.rolesOf(f).toolDefinition)),
          ),
          facts: {
            tool_policy_decision: toolPolicy.decision,
            tool_policy_reason: toolPolicy.reason,
            connector_status: connector,
            injection_severity: injection.severity,
            high_impact_tool: highImpact !== undefined,
            flags,
          },
          reasons: (decision: Decision) =>
            reasonsOf(decision, `default_allow: ${toolPolicy.reason}: no guardrail layer objected to this call`),
          input: canonicalJson({ ...input, arguments: input.arguments ?? {} }),
          maxTtlSeconds: 60,
        }),
      },
      call,
    );
    const { riskScore } = assessment;
    const warnings: string[] = [];
    if (truncated) warnings.push('arguments too large: only the first strings were screened');
    for (const run of runs) if (run.skipped) warnings.push(`detector ${run.pluginId} skipped: ${run.skipped.reason}`);

    return {
      ...sealed,
      response: {
        agent_decision: verdict,
        tool: input.tool,
        tool_policy: toolPolicy,
        connector: { name: connectorName ?? null, status: connector },
        high_impact: { matched: highImpact !== undefined, pattern: highImpact ?? null },
        risk_score: riskScore,
        risk_level: this.scorer.riskLevelOf(riskScore),
        reasons,
        warnings,
        flags,
        flag_explanations: flagExplanations(runs, this.catalog, this.scorer),
        prompt_injection: promptInjectionView(injection),
        ttl_seconds: sealed.decision.ttl_seconds,
        decision: sealed.decision,
        ...(pin ? { tool_pin: pin } : {}),
      },
    };
  }

  /** Without a workspace (in-process CLI replays) nothing is pinned: every definition is a first sight. */
  private async observePin(
    tool: string,
    server: string,
    definition: ToolDefinition,
    call: CallContext,
  ): Promise<PinObservation> {
    if (call.workspaceId) return this.pins.observe(call.workspaceId, server, tool, definition);
    const hashes = definitionHashes(definition);
    return {
      server,
      tool,
      status: 'first_seen',
      admin_approved: false,
      changed: [],
      ...hashes,
      pinned: { ...hashes, approved_by: 'first_sight', approved_at: new Date().toISOString() },
    };
  }
}
