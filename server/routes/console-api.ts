// The JSON endpoints behind the web console (and usable with an API key like any other route): console sign-in
// sessions, the workspace's API keys, its audit events, and the rules in effect.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Preflight } from '../../app/index.ts';
import { PluginCatalog } from '../../core/engine/pipeline/plugin-catalog.ts';
import { Ruleset } from '../../core/engine/rules/ruleset.ts';
import { Knex } from '../../core/platform/db/knex-token.ts';
import {
  authenticateKey,
  createApiKey,
  KEY_ROLES,
  type KeyRole,
  revokeWorkspaceKey,
} from '../../core/services/workspaces/api-keys.ts';
import {
  authenticateSession,
  closeSession,
  openSession,
  SESSION_COOKIE,
  SESSION_HOURS,
  sameToken,
} from '../../core/services/workspaces/console-sessions.ts';
import { principalOf } from '../call-context.ts';
import { badRequest, HttpError, notFound } from '../errors.ts';
import { requireKey } from '../middleware/auth.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { routeLimiter } from '../middleware/rate-limit.ts';
import { queryInt, queryOnce } from '../requests/query.ts';
import { compileBody } from '../requests/validation.ts';

export const sessionBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['api_key'],
  properties: { api_key: { type: 'string', minLength: 1, maxLength: 200, description: 'An admin API key' } },
} as const;

export const createKeyBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    role: { enum: [...KEY_ROLES], description: 'agent (default) or admin' },
    label: { type: 'string', minLength: 1, maxLength: 200 },
  },
} as const;

const parseSession = compileBody<{ api_key: string }>(sessionBodySchema);
const parseCreateKey = compileBody<{ role?: KeyRole; label?: string }>(createKeyBodySchema);

const AUDIT_FILTERS = ['surface', 'outcome', 'actor', 'limit', 'before'] as const;

function sessionCookie(ctx: Context, value: string | null, expires?: Date): void {
  ctx.cookies.set(SESSION_COOKIE, value, {
    httpOnly: true,
    sameSite: 'strict',
    secure: ctx.secure,
    path: '/',
    overwrite: true,
    ...(expires ? { expires } : { maxAge: 0 }),
  });
}

export function consoleApiRoutes(app: Preflight): Router {
  const knex = app.container.resolve(Knex);
  const ruleset = app.container.resolve(Ruleset);
  const catalog = app.container.resolve(PluginCatalog);
  const limited = routeLimiter(app);
  const router = new Router();
  const admin = requireKey(knex, ['admin']);
  const anyKey = requireKey(knex, ['admin', 'agent']);
  const body = jsonBody(app.config);

  // Sign in with an admin key: the key itself is never stored by the browser, only the HttpOnly session cookie.
  // A sign-in has no key check to mount after: every caller is counted per address (an Authorization header on it
  // would otherwise trip the limiter's auth-order guard).
  router.post('/console/session', limited('console_session', { perClientAddress: true }), body, async (ctx) => {
    const { api_key } = parseSession(ctx.request.body);
    const check = await authenticateKey(knex, api_key);
    if (!check.ok) throw new HttpError(401, 'unauthorized', 'That key is not valid (or has been revoked)');
    const { principal } = check;
    if (principal.role !== 'admin' || !principal.workspace) {
      throw new HttpError(403, 'forbidden', 'The console needs an admin key of a workspace');
    }
    const session = await openSession(knex, principal);
    sessionCookie(ctx, session.token, session.expiresAt);
    ctx.status = 201;
    ctx.body = {
      workspace: principal.workspace.name,
      key_prefix: principal.keyPrefix,
      csrf_token: session.csrfToken,
      expires_at: session.expiresAt.toISOString(),
    };
  });

  router.get('/console/session', async (ctx) => {
    const token = ctx.cookies.get(SESSION_COOKIE);
    const session = token ? await authenticateSession(knex, token) : undefined;
    if (!session?.principal.workspace) throw new HttpError(401, 'unauthorized', 'Not signed in');
    ctx.body = {
      workspace: session.principal.workspace.name,
      plan: session.principal.workspace.plan,
      key_prefix: session.principal.keyPrefix,
      csrf_token: session.csrfToken,
      session_hours: SESSION_HOURS,
    };
  });

  router.delete('/console/session', async (ctx) => {
    const token = ctx.cookies.get(SESSION_COOKIE);
    const session = token ? await authenticateSession(knex, token) : undefined;
    if (token && session) {
      if (!sameToken(ctx.get('X-CSRF-Token'), session.csrfToken)) {
        throw new HttpError(403, 'forbidden', 'Missing or wrong X-CSRF-Token for this session');
      }
      await closeSession(knex, token);
    }
    sessionCookie(ctx, null);
    ctx.status = 204;
  });

  router.get('/keys', admin, async (ctx) => {
    const { workspace } = principalOf(ctx);
    const rows = await knex('api_keys')
      .where('workspace_id', workspace.id)
      .orderBy('created_at', 'desc')
      .select('id', 'prefix', 'role', 'label', 'created_at', 'revoked_at');
    ctx.body = { keys: rows };
  });

  router.post('/keys', admin, body, async (ctx) => {
    const req = parseCreateKey(ctx.request.body ?? {});
    const created = await createApiKey(knex, {
      workspace: principalOf(ctx).workspace.name,
      role: req.role ?? 'agent',
      ...(req.label ? { label: req.label } : {}),
    });
    ctx.status = 201;
    ctx.body = { id: created.id, key: created.key, prefix: created.prefix, role: created.role };
  });

  router.delete('/keys/:id', admin, async (ctx) => {
    const revoked = await revokeWorkspaceKey(knex, principalOf(ctx).workspace.id, ctx.params.id ?? '');
    if (!revoked) throw notFound('No active key with that id in this workspace');
    ctx.status = 204;
  });

  router.get('/audit/events', admin, async (ctx) => {
    for (const k of Object.keys(ctx.query)) {
      if (!(AUDIT_FILTERS as readonly string[]).includes(k)) throw badRequest(`unsupported parameter ${k}`);
    }
    const limit = queryInt(ctx, 'limit', { min: 1, max: 500, fallback: 50 });
    const before = queryOnce(ctx, 'before');
    if (before !== undefined && !/^[1-9][0-9]{0,17}$/.test(before)) throw badRequest('before must be an event id');
    const q = knex('audit_events')
      .where('workspace_id', principalOf(ctx).workspace.id)
      .orderBy('id', 'desc')
      .limit(limit)
      .select(
        'id',
        'created_at',
        'endpoint',
        'surface',
        'outcome',
        'actor',
        'request_id',
        'decision_id',
        'flags',
        'prompt_preview',
        'ruleset_hash',
      );
    for (const name of ['surface', 'outcome', 'actor'] as const) {
      const v = queryOnce(ctx, name);
      if (v !== undefined) q.where(name, v);
    }
    if (before !== undefined) q.where('id', '<', before);
    const rows = await q;
    ctx.body = { events: rows.map((r) => ({ ...r, id: Number(r.id) })) };
  });

  // The full scan result a finished job produced (the job record itself carries only the summary the spec shows).
  router.get('/scan/jobs/:id/scan', anyKey, async (ctx) => {
    const id = ctx.params.id ?? '';
    if (!/^[0-9]{1,18}$/.test(id)) throw notFound('No such job');
    const row = await knex('scan_jobs as j')
      .join('scans as s', 's.id', 'j.result_scan_id')
      .where({ 'j.id': id, 'j.workspace_id': principalOf(ctx).workspace.id })
      .first<{ result: Record<string, unknown>; compacted: boolean; scan_row: string } | undefined>(
        's.result',
        's.compacted',
        's.id as scan_row',
      );
    if (!row) throw notFound('No finished scan for that job in this workspace');
    if (row.compacted) {
      throw new HttpError(410, 'scan_compacted', 'The scan is past its evidence window; only its summary remains');
    }
    ctx.body = { scan_id: Number(row.scan_row), ...row.result };
  });

  // The rules in effect (merged rules/ and rules/local/) and every declared flag with what it means and weighs.
  router.get('/rules', anyKey, (ctx) => {
    const { hash, ...rules } = ruleset;
    const flags: Record<string, { description: string; detector: string; weight: number | null }> = {};
    for (const declared of catalog.flags.values()) {
      flags[declared.flag] = {
        description: declared.description,
        detector: declared.pluginId,
        weight: ruleset.weights[declared.flag] ?? null,
      };
    }
    ctx.body = { ruleset_hash: hash, rules, flags };
  });

  return router;
}
