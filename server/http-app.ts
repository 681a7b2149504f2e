import http, { type Server } from 'node:http';
import Koa, { type Context, type Next } from 'koa';
import type { Preflight } from '../app/index.ts';
import type { AppConfig } from '../core/config.ts';
import { Knex } from '../core/platform/db/knex-token.ts';
import { createLogger } from '../core/platform/observability/logger.ts';
import { metricsOf } from '../core/platform/observability/metrics.ts';
import { PdfRenderer } from '../core/reports/pdf-renderer.ts';
import { errorHandler } from './middleware/error-handler.ts';
import { requireJsonBodies } from './middleware/json-body.ts';
import { observe } from './middleware/observe.ts';
import { requestId } from './middleware/request-id.ts';
import { agentRoutes } from './routes/agent.ts';
import { consoleRoutes } from './routes/console.ts';
import { consoleApiRoutes } from './routes/console-api.ts';
import { docsRoutes } from './routes/docs.ts';
import { emailRoutes } from './routes/email.ts';
import { integrationRoutes } from './routes/integrations.ts';
import { jobRoutes } from './routes/jobs.ts';
import { metricsRoutes } from './routes/metrics.ts';
import { publicRoutes } from './routes/public.ts';
import { reportRoutes } from './routes/reports.ts';
import { scannerRoutes } from './routes/scanner.ts';
import { ticketRoutes } from './routes/tickets.ts';
import { usageRoutes } from './routes/usage.ts';
import { webAccessRoutes } from './routes/web-access.ts';
import { webhookRoutes } from './routes/webhooks.ts';

/**
 * An http.Server with the configured limits: header, request and keep-alive deadlines and a connection cap, so
 * clients that open sockets and stall cannot hold the process's memory or file descriptors.
 */
export function createLimitedServer(koa: Koa, limits: AppConfig['http']): Server {
  const server = http.createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // How often node looks for connections past those deadlines (its default, 30 s, would double them).
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
    },
    koa.callback(),
  );
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxConnections = limits.maxConnections;
  return server;
}

/**
 * A response sent before the request body was read (401, 413, 404, 415…) ends the connection: otherwise node keeps
 * the socket open draining whatever the client still sends, and a stalled upload holds it until the timeout. The
 * close is graceful: FIN right after the answer, what still arrives is discarded for a short grace period (so the
 * client reads the answer instead of a reset), then the socket is destroyed.
 */
const UNREAD_BODY_GRACE_MS = 2000;

async function closeWhenBodyUnread(ctx: Context, next: Next): Promise<void> {
  await next();
  if (ctx.req.complete) return;
  // Not `Connection: close`: node would destroy the socket as soon as the answer is written, and a client still
  // sending would get a reset that can swallow the answer.
  const { req, res } = ctx;
  res.once('finish', () => {
    req.resume();
    req.socket.end();
    setTimeout(() => req.socket.destroy(), UNREAD_BODY_GRACE_MS).unref();
  });
}

export function createHttpApp(app: Preflight): Koa {
  const koa = new Koa({ proxy: false });
  // Whoever starts the app (server/main.ts, tests, bench) gets the limited server from koa.listen().
  koa.listen = ((...args: Parameters<Server['listen']>) =>
    createLimitedServer(koa, app.config.http).listen(...args)) as Koa['listen'];
  koa.silent = true; // errors are answered and logged by errorHandler
  koa.use(closeWhenBodyUnread);
  koa.use(requestId);
  const metrics = metricsOf(app.container, app.container.resolve(Knex));
  const log = app.config.logRequests ? createLogger() : undefined;
  koa.use(observe(metrics, log));
  koa.use(errorHandler(log ? (line) => log.error(line) : undefined));
  // Bodies are read per route by jsonBody, after the route's auth and rate limit (see server/middleware/json-body.ts).
  koa.use(requireJsonBodies);
  const routers = [
    publicRoutes(app),
    agentRoutes(app),
    scannerRoutes(app),
    jobRoutes(app),
    reportRoutes(app, app.container.resolve(PdfRenderer)),
    webAccessRoutes(app),
    ticketRoutes(app),
    webhookRoutes(app),
    emailRoutes(app),
    integrationRoutes(app),
    docsRoutes(),
    usageRoutes(app),
    consoleApiRoutes(app),
    consoleRoutes(),
    ...(app.config.metrics.enabled && app.config.metrics.port === undefined ? [metricsRoutes(metrics)] : []),
  ];
  for (const router of routers) {
    koa.use(router.routes());
    koa.use(router.allowedMethods());
  }
  return koa;
}
