import { badRequest } from '../errors.ts';
import { type ActionFields, actionFieldsSchema, actionInputOf } from './check-action.ts';
import { checkContentBodySchema } from './check-content.ts';
import { compileBody } from './validation.ts';

export const GUARDRAIL_KINDS = ['prompt', 'tool_call', 'action'] as const;
export type GuardrailKind = (typeof GUARDRAIL_KINDS)[number];

export const guardrailBodySchema = {
  type: 'object',
  properties: {
    ...checkContentBodySchema.properties,
    ...actionFieldsSchema,
    kind: { enum: [...GUARDRAIL_KINDS], description: 'prompt, tool_call or action (default).' },
    tool: { type: 'string', minLength: 1, maxLength: 200, description: 'Name of the tool or MCP server.' },
    arguments: { type: 'object', description: 'Tool arguments; screened for injection.' },
  },
} as const;

interface GuardrailBody extends ActionFields {
  kind?: GuardrailKind;
  content?: string;
  text?: string;
  tool?: string;
  arguments?: Record<string, unknown>;
}

const parseBody = compileBody<GuardrailBody>(guardrailBodySchema);

export type GuardrailRequest =
  | { kind: 'prompt'; input: { content: string; url?: string } }
  | { kind: 'action'; input: ReturnType<typeof actionInputOf> }
  | {
      kind: 'tool_call';
      input: {
        tool: string;
        arguments?: Record<string, unknown>;
        connector?: string;
        prompt?: string;
        intent?: string;
      };
    };

/** Validates a unified guardrail body; each kind's required field missing is a 400 naming it. */
export function parseGuardrailRequest(raw: unknown): GuardrailRequest {
  const body = parseBody(raw);
  const kind = body.kind ?? 'action';
  if (kind === 'prompt') {
    const content = body.content ?? body.page_text ?? body.text;
    if (typeof content !== 'string') {
      throw badRequest('content is required for kind "prompt" (page_text and text are accepted as aliases)');
    }
    return { kind, input: { content, ...(body.url !== undefined ? { url: body.url } : {}) } };
  }
  if (kind === 'tool_call') {
    if (typeof body.tool !== 'string') throw badRequest('tool is required for kind "tool_call"');
    return {
      kind,
      input: {
        tool: body.tool,
        ...(body.arguments !== undefined ? { arguments: body.arguments } : {}),
        ...(body.connector !== undefined ? { connector: body.connector } : {}),
        ...(body.prompt !== undefined ? { prompt: body.prompt } : {}),
        ...(body.intent !== undefined ? { intent: body.intent } : {}),
      },
    };
  }
  return { kind, input: actionInputOf(body) };
}
