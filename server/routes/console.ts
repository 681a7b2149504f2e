import { readFileSync } from 'node:fs';
import path from 'node:path';
import Router from '@koa/router';
import { ROOT_DIR } from '../../core/config.ts';
import { notFound } from '../errors.ts';

const DIR = path.join(ROOT_DIR, 'console');
const ASSETS: Record<string, string> = { 'app.js': 'application/javascript', 'app.css': 'text/css' };

// Same-origin scripts and styles only; the console talks to this service and nothing else.
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** The web console: one page at `/` and its two assets, read once. */
export function consoleRoutes(): Router {
  const router = new Router();
  const files = new Map<string, Buffer>();
  const load = (name: string) => {
    let file = files.get(name);
    if (!file) {
      file = readFileSync(path.join(DIR, name));
      files.set(name, file);
    }
    return file;
  };

  router.get('/', (ctx) => {
    ctx.set('Content-Security-Policy', CSP);
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.type = 'text/html';
    ctx.body = load('index.html');
  });

  router.get('/console/assets/:file', (ctx) => {
    const name = ctx.params.file ?? '';
    const type = ASSETS[name];
    if (!type) throw notFound('No such asset');
    ctx.type = type;
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = load(name);
  });

  return router;
}
