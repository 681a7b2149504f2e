import { bodyParser } from '@koa/bodyparser';
import type { Context, Middleware, Next } from 'koa';
import type { AppConfig } from '../../core/config.ts';
import { nestsDeeperThan } from '../../core/engine/json-depth.ts';
import { HttpError } from '../errors.ts';

/** True when the request announces a body: a non-zero Content-Length or any Transfer-Encoding (chunked). */
export function announcesBody(ctx: Context): boolean {
  if (ctx.get('Transfer-Encoding') !== '') return true;
  const length = ctx.get('Content-Length');
  return length !== '' && length !== '0';
}

/**
 * A 415 for any announced body that is not JSON, chunked ones included. Needs only the headers, so it runs for
 * every request before any body is read.
 */
export async function requireJsonBodies(ctx: Context, next: Next): Promise<void> {
  if (['POST', 'PUT', 'PATCH'].includes(ctx.method) && announcesBody(ctx) && !ctx.is('application/json')) {
    throw new HttpError(415, 'unsupported_media_type', 'Send the body as application/json');
  }
  await next();
}

export interface JsonBodyOptions {
  /** JSON-RPC answers a parse error itself (-32700): the failure is left in `ctx.state.bodyParseError`. */
  jsonRpc?: boolean;
}

/**
 * Reads and parses the JSON body. Mounted per route AFTER auth and the rate limit, so a caller without a valid key
 * is refused from the headers alone and never makes the service buffer a body; callers without a key (anonymous
 * scanner routes) get the much smaller anonymous limit. Bodies nested deeper than `jsonMaxDepth` and bodies that
 * cannot be decompressed are a 400.
 */
export function jsonBody(
  config: Pick<AppConfig, 'bodyLimitBytes' | 'anonymousBodyLimitBytes' | 'jsonMaxDepth'>,
  options: JsonBodyOptions = {},
): Middleware {
  const parserFor = (limit: number) =>
    bodyParser({ enableTypes: ['json'], jsonLimit: limit, jsonStrict: true, parsedMethods: ['POST', 'PUT', 'PATCH'] });
  const keyed = parserFor(config.bodyLimitBytes);
  const anonymous = parserFor(config.anonymousBodyLimitBytes);
  const noop = async () => {};
  return async (ctx, next) => {
    const parse = ctx.state.principal ? keyed : anonymous;
    try {
      await parse(ctx, noop);
    } catch (err) {
      const status = (err as { status?: unknown }).status;
      const clientError = typeof status === 'number' && status >= 400 && status < 500;
      if (options.jsonRpc && (status === 400 || !clientError)) {
        ctx.state.bodyParseError = true;
        return next();
      }
      if (clientError) throw err; // 400 not JSON, 413 too large, 415 unknown encoding: the error handler maps them
      // zlib (corrupt gzip/deflate/br) and the like carry no status: the body as sent cannot be read.
      throw new HttpError(400, 'invalid_body', 'Request body could not be read (corrupt or truncated encoding)');
    }
    if (nestsDeeperThan(ctx.request.body, config.jsonMaxDepth)) {
      if (options.jsonRpc) {
        ctx.state.bodyTooDeep = config.jsonMaxDepth;
        return next();
      }
      throw new HttpError(400, 'invalid_json', `Request body nests deeper than ${config.jsonMaxDepth} levels`);
    }
    await next();
  };
}
