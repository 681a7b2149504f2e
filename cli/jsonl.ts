import { createInterface } from 'node:readline';
import { HttpError } from '../server/errors.ts';

/** The REST error body for a failed line, minus the request id an HTTP request would carry. */
export function errorBody(err: unknown): Record<string, unknown> {
  if (err instanceof HttpError) {
    return { error: err.code, message: err.message, ...(err.details !== undefined ? { details: err.details } : {}) };
  }
  return { error: 'internal_error', message: 'Unexpected error; no verdict was produced' };
}

/**
 * Reads one JSON request body per line from stdin and writes one response body per line to stdout, in order.
 * Blank lines are skipped; a line that is not JSON yields the same error body the HTTP API would give.
 */
export async function runJsonl(handle: (body: unknown) => Promise<unknown>): Promise<void> {
  const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    let out: unknown;
    try {
      let body: unknown;
      try {
        body = JSON.parse(line);
      } catch {
        throw new HttpError(400, 'invalid_json', 'Request body is not valid JSON');
      }
      out = await handle(body);
    } catch (err) {
      out = errorBody(err);
    }
    if (!process.stdout.write(`${JSON.stringify(out)}\n`)) await new Promise((r) => process.stdout.once('drain', r));
  }
}
