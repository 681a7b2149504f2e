import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import type { Preflight } from '../../app/index.ts';
import type { PdfRenderer } from '../../core/reports/pdf-renderer.ts';
import { errorHandler } from '../../server/middleware/error-handler.ts';
import { requestId } from '../../server/middleware/request-id.ts';
import { reportRoutes } from '../../server/routes/reports.ts';

/**
 * The reports router on its own Koa over a test server's app, with the same request-id and error middleware as
 * http-app.ts: lets each test choose its renderer (a real one, or one pointed at a missing Chromium).
 */
export async function startReportServer(
  app: Preflight,
  renderer: PdfRenderer,
): Promise<{ get(path: string, key?: string): Promise<Response>; close(): Promise<void> }> {
  const koa = new Koa();
  koa.silent = true;
  koa.use(requestId);
  koa.use(errorHandler());
  const router = reportRoutes(app, renderer);
  koa.use(router.routes());
  koa.use(router.allowedMethods());
  const server: Server = koa.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    get: (path, key) => fetch(`${base}${path}`, { headers: key ? { Authorization: `Api-Key ${key}` } : {} }),
    async close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
