import { badRequest } from '../errors.ts';
import { compileBody } from './validation.ts';

/** POST /agent/check-content. `page_text` and `text` are aliases of `content`; the first present one wins. */
export const checkContentBodySchema = {
  type: 'object',
  properties: {
    content: { type: 'string' },
    page_text: { type: 'string' },
    text: { type: 'string' },
    url: { type: 'string', maxLength: 4096 },
  },
} as const;

export interface CheckContentBody {
  content?: string;
  page_text?: string;
  text?: string;
  url?: string;
}

const parseBody = compileBody<CheckContentBody>(checkContentBodySchema);

/** Validates a content-check body and resolves the aliases; a missing or non-string content is a 400. */
export function parseCheckContentRequest(body: unknown): { content: string; url?: string } {
  const parsed = parseBody(body);
  const content = parsed.content ?? parsed.page_text ?? parsed.text;
  if (typeof content !== 'string') {
    throw badRequest('content is required: a string (page_text and text are accepted as aliases)');
  }
  return { content, url: parsed.url };
}
