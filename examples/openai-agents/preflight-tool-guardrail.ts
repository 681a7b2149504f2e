// A tool-input guardrail for the OpenAI Agents SDK: before any guarded tool runs, its name and arguments go to
// Preflight's guardrail (kind tool_call). `allow` runs the tool; `approval_required` asks `approve` (a person, a
// queue) and otherwise tells the model the call was held; `block` stops the run (or, with onBlock "reject", tells
// the model and carries on).
import { defineToolInputGuardrail, ToolGuardrailFunctionOutputFactory } from '@openai/agents';
import type { PreflightClient } from '../../client/index.ts';

export interface PreflightGuardrailOptions {
  /** Asked on approval_required; resolve true to let the call run. Default: hold every such call. */
  approve?: (call: { tool: string; arguments: Record<string, unknown>; reasons: string[] }) => Promise<boolean>;
  /** `throw` (default) ends the run with ToolInputGuardrailTripwireTriggered; `reject` only skips the call. */
  onBlock?: 'throw' | 'reject';
}

function argumentsOf(raw: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(raw || '{}');
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
    return { value: parsed };
  } catch {
    // Malformed arguments are still screened, as one string.
    return { raw };
  }
}

export function preflightToolGuardrail(client: PreflightClient, options: PreflightGuardrailOptions = {}) {
  return defineToolInputGuardrail({
    name: 'preflight',
    run: async ({ toolCall }) => {
      const args = argumentsOf(toolCall.arguments);
      const verdict = await client.guardrail({ kind: 'tool_call', tool: toolCall.name, arguments: args });
      const info = {
        agent_decision: verdict.agent_decision,
        decision_id: verdict.decision.id,
        reasons: verdict.reasons,
      };
      if (verdict.agent_decision === 'allow') return ToolGuardrailFunctionOutputFactory.allow(info);
      if (verdict.agent_decision === 'approval_required') {
        const approved = await options.approve?.({ tool: toolCall.name, arguments: args, reasons: verdict.reasons });
        if (approved) return ToolGuardrailFunctionOutputFactory.allow({ ...info, approved: true });
        return ToolGuardrailFunctionOutputFactory.rejectContent(
          `The call to ${toolCall.name} needs a person's approval and was not run (${verdict.reasons[0] ?? 'policy'}).`,
          info,
        );
      }
      if (options.onBlock === 'reject') {
        return ToolGuardrailFunctionOutputFactory.rejectContent(
          `The call to ${toolCall.name} was blocked by policy and was not run (${verdict.reasons[0] ?? 'policy'}).`,
          info,
        );
      }
      return ToolGuardrailFunctionOutputFactory.throwException(info);
    },
  });
}
