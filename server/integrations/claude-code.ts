// Claude Code's PreToolUse hook, spoken over HTTP: the hook input (tool_name, tool_input) becomes a guardrail
// tool_call check (plus a fast action check when the tool is about to open a URL), and the verdict becomes the
// hook's permissionDecision. The mapping is pure so the route stays a few lines and tests can table it.
import { VERDICT_ORDER, type Verdict } from '../../core/engine/rules/ruleset.ts';
import { badRequest } from '../errors.ts';
import { compileBody } from '../requests/validation.ts';

export type PermissionDecision = 'allow' | 'ask' | 'deny';

const PERMISSION: Record<Verdict, PermissionDecision> = {
  allow: 'allow',
  approval_required: 'ask',
  block: 'deny',
};

/** What Claude Code POSTs for PreToolUse (only the fields Preflight reads; the rest is accepted and ignored). */
export const preToolUseBodySchema = {
  type: 'object',
  required: ['tool_name'],
  properties: {
    hook_event_name: { const: 'PreToolUse', description: 'Only PreToolUse is answered here.' },
    tool_name: { type: 'string', minLength: 1, maxLength: 200, description: 'e.g. Bash, WebFetch, mcp__github__x' },
    tool_input: { type: 'object', description: 'The tool arguments; screened for injection.' },
    session_id: { type: 'string', maxLength: 200 },
    cwd: { type: 'string', maxLength: 4096 },
    transcript_path: { type: 'string', maxLength: 4096 },
    permission_mode: { type: 'string', maxLength: 100 },
    tool_use_id: { type: 'string', maxLength: 200 },
  },
} as const;

export interface PreToolUseBody {
  hook_event_name?: 'PreToolUse';
  tool_name: string;
  tool_input?: Record<string, unknown>;
  session_id?: string;
}

const parseBody = compileBody<PreToolUseBody>(preToolUseBodySchema);

export interface HookChecks {
  toolCall: { tool: string; arguments?: Record<string, unknown> };
  /** A URL the tool is about to open (WebFetch and similar tools carry it as `tool_input.url`). */
  url?: string;
}

export function parsePreToolUse(raw: unknown): HookChecks {
  const body = parseBody(raw);
  const toolInput = body.tool_input;
  const url = typeof toolInput?.url === 'string' ? toolInput.url.trim() : undefined;
  if (url !== undefined && url.length > 8192) throw badRequest('tool_input.url is longer than 8192 characters');
  return {
    toolCall: { tool: body.tool_name, ...(toolInput !== undefined ? { arguments: toolInput } : {}) },
    ...(url && /^https?:\/\//i.test(url) ? { url } : {}),
  };
}

export interface CheckOutcome {
  agent_decision: Verdict;
  reasons: string[];
  decision: { id: string };
}

export interface PreToolUseAnswer {
  hookSpecificOutput: {
    hookEventName: 'PreToolUse';
    permissionDecision: PermissionDecision;
    permissionDecisionReason: string;
  };
}

/** The strictest verdict of the checks that ran decides; its reasons (and every decision id) explain it. */
export function answerOf(outcomes: CheckOutcome[]): { answer: PreToolUseAnswer; winner: CheckOutcome } {
  const winner = outcomes.reduce((a, b) =>
    VERDICT_ORDER.indexOf(b.agent_decision) > VERDICT_ORDER.indexOf(a.agent_decision) ? b : a,
  );
  const reason = [
    `Preflight: ${winner.agent_decision}`,
    ...winner.reasons.slice(0, 3),
    `decision ${outcomes.map((o) => o.decision.id).join(', ')}`,
  ].join(' · ');
  return {
    winner,
    answer: {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: PERMISSION[winner.agent_decision],
        permissionDecisionReason: reason.length > 1000 ? `${reason.slice(0, 997)}...` : reason,
      },
    },
  };
}
