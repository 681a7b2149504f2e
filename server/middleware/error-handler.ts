import type { Context, Next } from 'koa';
import { JsonTooDeep } from '../../core/engine/json-depth.ts';
import { TargetError } from '../../core/engine/url/target.ts';
import { NonPublicTarget } from '../../core/services/scan/scan-service.ts';
import { ForceScanDisabled, QuotaExhausted } from '../../core/services/workspaces/quotas.ts';
import { HttpError } from '../errors.ts';

/** Seconds until the daily quotas reset (00:00 UTC). */
function secondsToUtcMidnight(now = new Date()): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/** koa/co-body/raw-body errors carry `status` and `expose`; ours are HttpError; the rest are bugs. */
export function asHttpError(err: unknown): HttpError | undefined {
  if (err instanceof HttpError) return err;
  if (err instanceof JsonTooDeep) return new HttpError(400, 'invalid_request', err.message);
  if (err instanceof NonPublicTarget) return new HttpError(400, 'invalid_request', err.message);
  // A URL that does not parse as a destination, wherever it is parsed (request validation or a check itself).
  if (err instanceof TargetError) return new HttpError(400, 'invalid_request', err.message);
  if (err instanceof QuotaExhausted) {
    return new HttpError(
      429,
      'quota_exceeded',
      err.message,
      { kind: err.kind, limit: err.limit },
      {
        'Retry-After': String(secondsToUtcMidnight()),
      },
    );
  }
  if (err instanceof ForceScanDisabled) return new HttpError(402, 'force_scan_disabled', err.message);
  const e = err as { status?: number; statusCode?: number; expose?: boolean; type?: string; message?: string };
  const status = e?.status ?? e?.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  if (status === 413) return new HttpError(413, 'payload_too_large', 'Request body is larger than the limit');
  if (status === 415) return new HttpError(415, 'unsupported_media_type', 'Send the body as application/json');
  if (e.type === 'entity.parse.failed' || status === 400) {
    return new HttpError(400, 'invalid_json', 'Request body is not valid JSON');
  }
  return new HttpError(status, 'request_error', e.expose && e.message ? e.message : 'Request could not be processed');
}

export function errorHandler(log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new HttpError(404, 'not_found', `No route for ${ctx.method} ${ctx.path}`);
      }
      // The routers' allowedMethods answer 405 (known path, other method) and 501 (a method no route uses) with a
      // plain-text body; both are the caller's mistake, so both become a JSON 405 that keeps the Allow header.
      if ((ctx.status === 405 || ctx.status === 501) && (ctx.body === undefined || ctx.body === null)) {
        throw new HttpError(405, 'method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}`);
      }
    } catch (err) {
      const http = asHttpError(err);
      const requestId = ctx.state.requestId as string | undefined;
      if (!http) {
        // The stack goes to the operator's log, never to the caller.
        log(`[${requestId ?? '-'}] ${ctx.method} ${ctx.path} failed: ${(err as Error)?.stack ?? String(err)}`);
      }
      const out = http ?? new HttpError(500, 'internal_error', 'Unexpected error; no verdict was produced');
      ctx.status = out.status;
      ctx.set(out.headers);
      ctx.body = {
        error: out.code,
        message: out.message,
        ...(out.details !== undefined ? { details: out.details } : {}),
        request_id: requestId,
      };
    }
  };
}
