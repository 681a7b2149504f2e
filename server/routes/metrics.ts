import Router from '@koa/router';
import type { Metrics } from '../../core/platform/observability/metrics.ts';

/** GET /metrics in Prometheus text format; no key (bind it elsewhere with PREFLIGHT_METRICS_PORT, or turn it off). */
export function metricsRoutes(metrics: Metrics): Router {
  const router = new Router();
  router.get('/metrics', async (ctx) => {
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  });
  return router;
}
