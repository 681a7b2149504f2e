import { normaliseName } from '../../core/engine/text/normalise.ts';
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
    tool_definition: {
      type: 'object',
      additionalProperties: false,
      description: "The tool's MCP definition as tools/list gives it; pinned per workspace on first sight.",
      properties: {
        name: { type: 'string', maxLength: 200 },
        title: { type: 'string', maxLength: 500 },
        description: { type: 'string', maxLength: 100_000 },
        inputSchema: { type: 'object' },
        input_schema: { type: 'object' },
        outputSchema: { type: 'object' },
        annotations: { type: 'object' },
      },
    },
  },
} as const;

interface ToolDefinitionBody {
  description?: string;
  inputSchema?: Record<string, unknown>;
  input_schema?: Record<string, unknown>;
}

interface GuardrailBody extends ActionFields {
  kind?: GuardrailKind;
  content?: string;
  text?: string;
  tool?: string;
  arguments?: Record<string, unknown>;
  tool_definition?: ToolDefinitionBody;
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
        tool_definition?: { description?: string; input_schema?: Record<string, unknown> };
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
    // Matched against the policy in normalised form; a name that is nothing but invisible characters names no tool.
    if (normaliseName(body.tool) === '') throw badRequest('tool must contain visible characters');
    return {
      kind,
      input: {
        tool: body.tool,
        ...(body.arguments !== undefined ? { arguments: body.arguments } : {}),
        ...(body.connector !== undefined ? { connector: body.connector } : {}),
        ...(body.prompt !== undefined ? { prompt: body.prompt } : {}),
        ...(body.intent !== undefined ? { intent: body.intent } : {}),
        ...(body.tool_definition !== undefined ? { tool_definition: toolDefinitionOf(body.tool_definition) } : {}),
      },
    };
  }
  return { kind, input: actionInputOf(body) };
}

/** MCP spells it `inputSchema`; `input_schema` is accepted too. Hashing needs one spelling. */
function toolDefinitionOf(def: ToolDefinitionBody) {
  const schema = def.inputSchema ?? def.input_schema;
  return {
    ...(def.description !== undefined ? { description: def.description } : {}),
    ...(schema !== undefined ? { input_schema: schema } : {}),
  };
}
