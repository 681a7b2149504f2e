import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import type { Metrics } from '../../core/platform/observability/metrics.ts';

/**
 * Request metrics (route template, not the raw path, so ids do not explode the label set), the verdict a response
 * carries, and an access-log line with the request id. No body is ever logged.
 */
export function observe(metrics: Metrics, log: Logger | undefined) {
  return async (ctx: Context, next: Next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const route = (ctx as Context & { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics.httpRequests.inc({ route, method: ctx.method, status: String(ctx.status) });
      metrics.httpDuration.observe({ route, method: ctx.method }, seconds);
      if (ctx.status < 400) metrics.countVerdict(ctx.body);
      log?.info(
        {
          request_id: ctx.state.requestId,
          method: ctx.method,
          route,
          status: ctx.status,
          ms: Math.round(seconds * 1e4) / 10,
        },
        'request',
      );
    }
  };
}
