import type { Knex } from 'knex';
import type { Context, Next } from 'koa';
import { authenticateKey, type KeyRole, type Principal } from '../../core/services/workspaces/api-keys.ts';
import { authenticateSession, SESSION_COOKIE, sameToken } from '../../core/services/workspaces/console-sessions.ts';
import { HttpError } from '../errors.ts';

const unauthorized = (message: string) =>
  new HttpError(401, 'unauthorized', message, undefined, { 'WWW-Authenticate': 'Api-Key' });

/** `Authorization: Api-Key <key>` (preferred) or the legacy `X-API-KEY: <key>`. */
export function presentedKey(ctx: Context): string | undefined {
  const auth = ctx.get('Authorization');
  if (auth) {
    const m = /^Api-Key\s+(\S+)\s*$/i.exec(auth);
    return m?.[1] ?? '';
  }
  return ctx.get('X-API-KEY') || undefined;
}

/** The web console's session cookie, when the request carries one. */
function presentedSession(ctx: Context): string | undefined {
  return ctx.cookies.get(SESSION_COOKIE) || undefined;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A console session stands for the admin key that opened it. A request that changes something must also carry the
 * session's CSRF token (X-CSRF-Token); the cookie is SameSite=Strict as well, so either alone stops a forged form.
 */
async function sessionPrincipal(ctx: Context, knex: Knex, token: string): Promise<Principal> {
  const session = await authenticateSession(knex, token);
  if (!session) throw unauthorized('The console session has ended: sign in again');
  if (!SAFE_METHODS.has(ctx.method) && !sameToken(ctx.get('X-CSRF-Token'), session.csrfToken)) {
    throw new HttpError(403, 'forbidden', 'Missing or wrong X-CSRF-Token for this session');
  }
  return session.principal;
}

export function requireKey(knex: Knex, roles: readonly KeyRole[]) {
  return async (ctx: Context, next: Next) => {
    const key = presentedKey(ctx);
    const session = key === undefined ? presentedSession(ctx) : undefined;
    let principal: Principal;
    if (session !== undefined) {
      principal = await sessionPrincipal(ctx, knex, session);
    } else {
      if (key === undefined) throw unauthorized('Missing API key: send Authorization: Api-Key <key>');
      const check = await authenticateKey(knex, key);
      if (!check.ok) throw unauthorized(check.reason === 'revoked' ? 'API key has been revoked' : 'Invalid API key');
      principal = check.principal;
    }
    if (!principal.workspace) throw new HttpError(403, 'forbidden', 'API key has no workspace');
    if (!roles.includes(principal.role)) {
      throw new HttpError(403, 'forbidden', `This route needs a key with role ${roles.join(' or ')}`);
    }
    ctx.state.principal = principal;
    await next();
  };
}

/** Agent checks can be turned off per workspace; the agent endpoints then do not exist for it. */
export async function requireAgentChecks(ctx: Context, next: Next) {
  const principal = ctx.state.principal as Principal;
  if (!principal.workspace?.agentChecksEnabled) {
    throw new HttpError(404, 'not_found', 'Agent checks are turned off for this workspace');
  }
  await next();
}

/**
 * Scanner routes anonymous callers may use: a presented key (or session) must be valid (401 otherwise), but none at all
 * means an anonymous call (`ctx.state.principal` stays undefined) at the anonymous limits.
 */
export function optionalKey(knex: Knex) {
  const required = requireKey(knex, ['admin', 'agent']);
  return async (ctx: Context, next: Next) => {
    if (presentedKey(ctx) === undefined && presentedSession(ctx) === undefined) return next();
    return required(ctx, next);
  };
}
