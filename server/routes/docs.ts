import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Router from '@koa/router';
import { notFound } from '../errors.ts';
import { openApiDocument } from '../openapi/document.ts';

const swaggerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

// The page loads only same-origin files (no CDN, no inline script), so a strict CSP holds.
const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Preflight API</title><link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="api"></div><script src="/docs/assets/swagger-ui-bundle.js"></script><script src="/docs/assets/init.js"></script></body>
</html>
`;
const INIT = "window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#api', deepLinking: true });\n";

const ASSETS: Record<string, { type: string; load: () => string | Buffer }> = {
  'swagger-ui.css': { type: 'text/css', load: () => readFileSync(path.join(swaggerDir, 'swagger-ui.css')) },
  'swagger-ui-bundle.js': {
    type: 'application/javascript',
    load: () => readFileSync(path.join(swaggerDir, 'swagger-ui-bundle.js')),
  },
  'init.js': { type: 'application/javascript', load: () => INIT },
};

/** GET /openapi.json, and the docs page at /docs that renders it with swagger-ui served from node_modules. */
export function docsRoutes(): Router {
  const router = new Router();
  const loaded = new Map<string, string | Buffer>();

  router.get('/openapi.json', (ctx) => {
    ctx.body = openApiDocument();
  });

  router.get('/docs', (ctx) => {
    ctx.set('Content-Security-Policy', "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'");
    ctx.type = 'text/html';
    ctx.body = PAGE;
  });

  router.get('/docs/assets/:file', (ctx) => {
    const asset = ASSETS[ctx.params.file ?? ''];
    if (!asset) throw notFound('No such asset');
    const name = ctx.params.file!;
    if (!loaded.has(name)) loaded.set(name, asset.load());
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.type = asset.type;
    ctx.body = loaded.get(name);
  });

  return router;
}
