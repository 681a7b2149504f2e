import Router from '@koa/router';
import type { Preflight } from '../../app/index.ts';
import { PluginCatalog } from '../../core/engine/pipeline/plugin-catalog.ts';
import { Knex } from '../../core/platform/db/knex-token.ts';
import { BrowserUnavailable, type PdfRenderer, RenderTimeout } from '../../core/reports/pdf-renderer.ts';
import { ScanReports } from '../../core/reports/scan-report.ts';
import { principalOf } from '../call-context.ts';
import { HttpError, notFound } from '../errors.ts';
import { requireKey } from '../middleware/auth.ts';
import { routeLimiter } from '../middleware/rate-limit.ts';

// Positive integers that fit bigint and a JS number: anything else cannot name a scan, and would make Postgres throw.
const SCAN_ID = /^[1-9][0-9]{0,14}$/;

/** GET /reports/<scan id>: the scan as a PDF, rendered on demand from its stored result. */
export function reportRoutes(app: Preflight, renderer: PdfRenderer): Router {
  const knex = app.container.resolve(Knex);
  const reports = new ScanReports(knex, app.container.resolve(PluginCatalog));
  const router = new Router();
  const auth = requireKey(knex, ['admin', 'agent']);
  // Each report is a Chromium render: rate limited like the scanner routes.
  const limited = routeLimiter(app);

  router.get('/reports/:id', auth, limited('report'), async (ctx) => {
    const raw = ctx.params.id ?? '';
    // Same answer as an unknown id, like /evidencepacks: a malformed id names no scan.
    if (!SCAN_ID.test(raw)) throw notFound('No such scan');
    const scanId = Number(raw);
    const report = await reports.html(scanId, principalOf(ctx).workspace.id);
    if (!report.ok) {
      if (report.reason === 'compacted') {
        throw new HttpError(
          410,
          'report_unavailable',
          `Scan ${scanId} is past its evidence window: retention compacted it to the history summary, so the full result a report is built from is gone. Scan the domain again for a fresh report.`,
        );
      }
      throw notFound('No such scan');
    }
    let pdf: Buffer;
    try {
      pdf = await renderer.render(report.html);
    } catch (err) {
      if (err instanceof BrowserUnavailable) {
        throw new HttpError(503, 'browser_unavailable', `PDF reports need Chromium: ${err.message}`);
      }
      if (err instanceof RenderTimeout) {
        throw new HttpError(503, 'report_render_timeout', err.message, undefined, { 'Retry-After': '5' });
      }
      throw err;
    }
    ctx.type = 'application/pdf';
    ctx.set('Content-Disposition', `inline; filename="preflight-scan-${scanId}.pdf"`);
    // A workspace's evidence: never kept by shared caches.
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = pdf;
  });

  return router;
}
