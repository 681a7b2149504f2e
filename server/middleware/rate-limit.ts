import ipaddr from 'ipaddr.js';
import type { Context, Middleware, Next } from 'koa';
import type { Preflight } from '../../app/index.ts';
import type { Plans } from '../../core/engine/rules/ruleset.ts';
import { Ruleset } from '../../core/engine/rules/ruleset.ts';
import { Knex } from '../../core/platform/db/knex-token.ts';
import { type RateLimitOverrides, rateLimitOverridesFromEnv } from '../../core/services/limits/overrides.ts';
import { RateLimiter } from '../../core/services/limits/rate-limiter.ts';
import type { Principal } from '../../core/services/workspaces/api-keys.ts';
import { limitsFor } from '../../core/services/workspaces/quotas.ts';
import { HttpError } from '../errors.ts';
import { presentedKey } from './auth.ts';

/** Who a request is counted against and how many requests per minute that caller gets on the route. */
export interface CallerLimit {
  key: string;
  limit: number;
}

export interface RateLimitOptions {
  /** Names the route's buckets; routes sharing a name share a limit. */
  route: string;
  limitFor(ctx: Context): CallerLimit | Promise<CallerLimit>;
}

/**
 * Counts the request in `${route}:${key}` and refuses it with 429 once the caller's per-minute limit is spent.
 * Mount it after the route's auth, so authenticated callers are counted against their workspace.
 */
export function rateLimit(limiter: RateLimiter, options: RateLimitOptions) {
  return async (ctx: Context, next: Next) => {
    const { key, limit } = await options.limitFor(ctx);
    const result = await limiter.hit(`${options.route}:${key}`, limit);
    const headers = {
      'X-RateLimit-Limit': String(result.limit),
      'X-RateLimit-Remaining': String(result.remaining),
      'X-RateLimit-Reset': String(result.resetSeconds),
    };
    // Set before next(): the error handler replaces status and body but keeps headers already set, so the
    // route's 4xx and 5xx answers also tell the caller where they stand.
    ctx.set(headers);
    if (!result.allowed) {
      throw new HttpError(
        429,
        'rate_limited',
        `Rate limit of ${result.limit} requests per minute for this route exceeded; retry after ${result.resetSeconds} s`,
        undefined,
        { ...headers, 'Retry-After': String(result.resetSeconds) },
      );
    }
    await next();
  };
}

/**
 * Anonymous callers are counted per address. IPv4-mapped IPv6 is unwrapped so a dual-stack listener does not
 * give one client two buckets, and IPv6 is counted per /64 because a single subscriber usually holds a whole /64
 * and could otherwise rotate addresses to dodge the limit.
 */
export function clientBucketAddress(ip: string): string {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.process(ip);
  } catch {
    return ip || 'unknown';
  }
  if (addr.kind() === 'ipv4') return addr.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${addr.toString()}/64`).toString()}/64`;
}

/**
 * Per-minute limits from the plans: a workspace gets its plan's `rate_limit_per_minute` (key `ws:<id>`), an
 * anonymous caller the `anonymous` value (key `ip:<address>`). The environment overrides are read once, here,
 * unless given.
 */
export function limitForCaller(
  plans: Plans,
  overrides: RateLimitOverrides = rateLimitOverridesFromEnv(),
  options: { perClientAddress?: boolean } = {},
): (ctx: Context) => CallerLimit {
  return (ctx) => {
    // Routes without a key check (sign-in with a key in the body) count every caller per address, whatever
    // headers it sends.
    if (options.perClientAddress) {
      return {
        key: `ip:${clientBucketAddress(ctx.ip)}`,
        limit: overrides.anonymous ?? plans.anonymous.rate_limit_per_minute,
      };
    }
    const principal = ctx.state.principal as Principal | undefined;
    if (principal) {
      const perMinute = overrides.workspace ?? limitsFor(plans, principal.workspace?.plan).rate_limit_per_minute;
      return principal.workspace
        ? { key: `ws:${principal.workspace.id}`, limit: perMinute }
        : { key: `key:${principal.keyId}`, limit: perMinute };
    }
    // A key without a principal means auth has not run yet: counting it as anonymous would hold a paying
    // workspace to the anonymous limit, so the misordering fails loudly instead.
    if (presentedKey(ctx) !== undefined) {
      throw new Error('rateLimit is mounted before the auth middleware: a key was presented but no principal is set');
    }
    return {
      key: `ip:${clientBucketAddress(ctx.ip)}`,
      limit: overrides.anonymous ?? plans.anonymous.rate_limit_per_minute,
    };
  };
}

const limiters = new WeakMap<object, RateLimiter>();

/**
 * `limited(route)` for an app's routers: one limiter per app (shared by its routers), the caller's plan limits.
 * Mount it after auth (it must know the workspace) and before the handler (a refused call spends no quota).
 */
export function routeLimiter(app: Preflight): (route: string, options?: { perClientAddress?: boolean }) => Middleware {
  const knex = app.container.resolve(Knex);
  let limiter = limiters.get(app);
  if (!limiter) {
    limiter = new RateLimiter(knex);
    limiters.set(app, limiter);
  }
  const plans = app.container.resolve(Ruleset).plans;
  const overrides = rateLimitOverridesFromEnv();
  const limitFor = limitForCaller(plans, overrides);
  const perAddress = limitForCaller(plans, overrides, { perClientAddress: true });
  const shared = limiter;
  return (route, options = {}) =>
    rateLimit(shared, { route, limitFor: options.perClientAddress ? perAddress : limitFor });
}
