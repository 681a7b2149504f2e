import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import type { Preflight } from '../core/app.ts';
import { PdfRenderer } from '../core/reports/pdf-renderer.ts';
import { HttpError } from './errors.ts';
import { errorHandler } from './middleware/error-handler.ts';
import { requestId } from './middleware/request-id.ts';
import { agentRoutes } from './routes/agent.ts';
import { jobRoutes } from './routes/jobs.ts';
import { publicRoutes } from './routes/public.ts';
import { reportRoutes } from './routes/reports.ts';
import { scannerRoutes } from './routes/scanner.ts';

export function createHttpApp(app: Preflight): Koa {
  const koa = new Koa({ proxy: false });
  koa.silent = true; // errors are answered and logged by errorHandler
  koa.use(requestId);
  koa.use(errorHandler());
  koa.use(async (ctx, next) => {
    // A body we cannot read as JSON is refused, not silently treated as empty.
    if (['POST', 'PUT', 'PATCH'].includes(ctx.method) && ctx.request.length && !ctx.is('application/json')) {
      throw new HttpError(415, 'unsupported_media_type', 'Send the body as application/json');
    }
    await next();
  });
  koa.use(
    bodyParser({
      enableTypes: ['json'],
      jsonLimit: app.config.bodyLimitBytes,
      jsonStrict: true,
      parsedMethods: ['POST', 'PUT', 'PATCH'],
      // JSON-RPC answers a parse error itself (-32700); everywhere else it is a plain 400.
      onError: (err, ctx) => {
        if (ctx.path === '/agent/mcp' && (err as { status?: number }).status === 400) {
          ctx.state.bodyParseError = true;
          return;
        }
        throw err;
      },
    }),
  );
  const routers = [
    publicRoutes(app),
    agentRoutes(app),
    scannerRoutes(app),
    jobRoutes(app),
    reportRoutes(app, app.container.resolve(PdfRenderer)),
  ];
  for (const router of routers) {
    koa.use(router.routes());
    koa.use(router.allowedMethods());
  }
  return koa;
}
