import { parseTarget } from '../../core/engine/url/target.ts';
import { DEPTHS, type Depth, INTENTS, type Intent } from '../../core/services/checks/action-check.ts';
import { badRequest } from '../errors.ts';
import { scanTargetOf } from './scan.ts';
import { compileBody } from './validation.ts';

const TEXT_LIMIT = 1_000_000;

/** The fields the action check reads; shared by /agent/check-action, /agent/guardrail and the MCP tool. */
export const actionFieldsSchema = {
  url: { type: 'string', maxLength: 4096, description: 'Destination the agent is about to use.' },
  target: { type: 'string', maxLength: 4096, description: 'Alias of url.' },
  intent: { enum: [...INTENTS], description: 'What the agent means to do there. Default visit.' },
  depth: { enum: [...DEPTHS], description: 'fast (default) or deep.' },
  connector: { type: 'string', maxLength: 200, description: 'Tool identifier the action goes through.' },
  page_text: { type: 'string', maxLength: TEXT_LIMIT, description: 'Content already retrieved from the page.' },
  prompt: { type: 'string', maxLength: TEXT_LIMIT, description: 'Instruction the agent is following.' },
} as const;

export const checkActionBodySchema = { type: 'object', properties: actionFieldsSchema } as const;

export interface ActionFields {
  url?: string;
  target?: string;
  intent?: Intent;
  depth?: Depth;
  connector?: string;
  page_text?: string;
  prompt?: string;
}

const parseBody = compileBody<ActionFields>(checkActionBodySchema);

export function actionInputOf(body: ActionFields) {
  const url = body.url ?? body.target;
  if (typeof url !== 'string' || url.trim() === '') {
    throw badRequest('url is required: the destination URL (target is accepted as an alias)');
  }
  parseTarget(url); // throws TargetError: a 400 through the error handler
  const depth = body.depth ?? 'fast';
  // A deep check is a full scan: it takes exactly the targets POST /v1/scan takes (no localhost, no bare words).
  if (depth === 'deep') scanTargetOf(url);
  return {
    url,
    intent: body.intent ?? 'visit',
    depth,
    ...(body.connector !== undefined ? { connector: body.connector } : {}),
    ...(body.page_text !== undefined ? { page_text: body.page_text } : {}),
    ...(body.prompt !== undefined ? { prompt: body.prompt } : {}),
  } as const;
}

export function parseCheckActionRequest(body: unknown) {
  return actionInputOf(parseBody(body));
}
