import Router from '@koa/router';
import type { Preflight } from '../../app/index.ts';
import { Knex } from '../../core/platform/db/knex-token.ts';
import { ScanService } from '../../core/services/scan/scan-service.ts';
import type { Principal } from '../../core/services/workspaces/api-keys.ts';
import { principalOf } from '../call-context.ts';
import { notFound } from '../errors.ts';
import { optionalKey, requireKey } from '../middleware/auth.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { clientBucketAddress, routeLimiter } from '../middleware/rate-limit.ts';
import { parseScanRequest } from '../requests/scan.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The scanner's synchronous surface: POST /v1/scan, evidence packs and screenshots. */
export function scannerRoutes(app: Preflight): Router {
  const knex = app.container.resolve(Knex);
  const scans = app.container.resolve(ScanService);
  const router = new Router();
  const auth = requireKey(knex, ['admin', 'agent']);
  const limited = routeLimiter(app);

  // Anonymous callers may scan (at the anonymous rate limit); their results are not stored under any workspace.
  router.post('/v1/scan', optionalKey(knex), limited('scan'), jsonBody(app.config), async (ctx) => {
    const { target, force_scan } = parseScanRequest(ctx.request.body);
    const workspace = (ctx.state.principal as Principal | undefined)?.workspace;
    ctx.body = await scans.scan(
      target,
      { force_scan },
      {
        workspaceId: workspace?.id ?? null,
        plan: workspace?.plan,
        campaignTaggingEnabled: workspace?.campaignTaggingEnabled ?? false,
        actor: ctx.state.actor as string | null,
        requestId: ctx.state.requestId as string,
        ...(workspace ? {} : { anonymousBucket: clientBucketAddress(ctx.ip) }),
      },
    );
  });

  // Served byte for byte as stored: the sha256 in the scan result is over exactly this body.
  router.get('/evidencepacks/:id', auth, limited('evidencepack_read'), async (ctx) => {
    const id = ctx.params.id ?? '';
    if (!UUID.test(id)) throw notFound('No such evidence pack');
    const row = await knex('evidence_packs')
      .where({ id, workspace_id: principalOf(ctx).workspace.id })
      .first('canonical', 'sha256');
    if (!row) throw notFound('No such evidence pack');
    ctx.type = 'application/json';
    ctx.set('X-Content-SHA256', row.sha256);
    ctx.body = row.canonical;
  });

  router.get('/screenshots/:file', auth, limited('screenshot_read'), async (ctx) => {
    const id = (ctx.params.file ?? '').replace(/\.png$/, '');
    if (!UUID.test(id)) throw notFound('No such screenshot');
    const row = await knex('scan_screenshots')
      .where({ id, workspace_id: principalOf(ctx).workspace.id })
      .first('png', 'sha256');
    if (!row) throw notFound('No such screenshot');
    ctx.type = 'image/png';
    ctx.set('X-Content-SHA256', row.sha256);
    ctx.body = row.png;
  });

  return router;
}
