import { once } from 'node:events';
import type { Server } from 'node:http';
import Koa from 'koa';
import type { Preflight } from '../app/index.ts';
import { Knex } from '../core/platform/db/knex-token.ts';
import { metricsOf } from '../core/platform/observability/metrics.ts';
import { metricsRoutes } from './routes/metrics.ts';

/** /metrics on a listener of its own (PREFLIGHT_METRICS_PORT), e.g. bound where only the scraper reaches it. */
export async function startMetricsServer(app: Preflight, host: string, port: number): Promise<Server> {
  const koa = new Koa();
  koa.use(metricsRoutes(metricsOf(app.container, app.container.resolve(Knex))).routes());
  const server = koa.listen(port, host);
  await once(server, 'listening');
  return server;
}
