// Per-route rate limits against a real PostgreSQL and real Koa servers. Windows are moved by an injected clock
// and by writing counter rows, never by waiting.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import Router from '@koa/router';
import type { Knex } from 'knex';
import Koa, { type Context, type Next } from 'koa';
import { ConfigError, ROOT_DIR } from '../../core/config.ts';
import type { Plans } from '../../core/engine/rules/ruleset.ts';
import { createKnex } from '../../core/platform/db/database.ts';
import { type RateLimitOverrides, rateLimitOverridesFromEnv } from '../../core/services/limits/overrides.ts';
import { RateLimiter } from '../../core/services/limits/rate-limiter.ts';
import { createApiKey, updateWorkspace } from '../../core/services/workspaces/api-keys.ts';
import { badRequest } from '../../server/errors.ts';
import { presentedKey, requireKey } from '../../server/middleware/auth.ts';
import { errorHandler } from '../../server/middleware/error-handler.ts';
import { clientBucketAddress, limitForCaller, rateLimit } from '../../server/middleware/rate-limit.ts';
import { requestId } from '../../server/middleware/request-id.ts';
import { createTestDatabase } from '../support/database.ts';

const plans: Plans = JSON.parse(readFileSync(path.join(ROOT_DIR, 'rules', 'plans.json'), 'utf8'));
const START = new Date('2026-11-22T10:00:30.000Z');
let clock = START;

interface Api {
  get(path: string, key?: string): Promise<{ status: number; headers: Headers; body: any }>;
  close(): Promise<void>;
}

/** One "API process": its own Koa app, its own pool and limiter, the shared database. */
async function startApi(
  knex: Knex,
  opts: { limiter?: RateLimiter; overrides?: RateLimitOverrides } = {},
): Promise<Api> {
  const limiter = opts.limiter ?? new RateLimiter(knex, { now: () => clock, purgeProbability: 0 });
  const koa = new Koa({ proxy: false });
  koa.silent = true;
  koa.use(requestId);
  koa.use(errorHandler(() => {}));
  const auth = requireKey(knex, ['admin', 'agent']);
  // The scanner's planned shape: a presented key must check out; without one the caller is anonymous.
  const optionalAuth = (ctx: Context, next: Next) => (presentedKey(ctx) === undefined ? next() : auth(ctx, next));
  const limitFor = limitForCaller(plans, opts.overrides ?? {});
  const limited = (route: string) => rateLimit(limiter, { route, limitFor });
  const ok = (ctx: Context) => {
    ctx.body = { ok: true };
  };
  const router = new Router();
  router.get('/scan', optionalAuth, limited('scan'), ok);
  router.get('/jobs', optionalAuth, limited('jobs'), ok);
  router.get('/invalid', optionalAuth, limited('invalid'), () => {
    throw badRequest('domain is required');
  });
  router.get('/misordered', limited('misordered'), optionalAuth, ok);
  koa.use(router.routes());
  const server = koa.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    async get(urlPath, key) {
      const res = await fetch(`${base}${urlPath}`, { headers: key ? { Authorization: `Api-Key ${key}` } : {} });
      return { status: res.status, headers: res.headers, body: await res.json() };
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const remaining = (res: { headers: Headers }) => res.headers.get('X-RateLimit-Remaining');

describe('per-route rate limits', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let knexA: Knex;
  let knexB: Knex;
  let a: Api;
  let b: Api;

  before(async () => {
    database = await createTestDatabase();
    knexA = createKnex(database.url, 4);
    knexB = createKnex(database.url, 4);
    await knexA.migrate.latest();
    a = await startApi(knexA);
    b = await startApi(knexB);
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await knexA?.destroy();
    await knexB?.destroy();
    await database?.drop();
  });
  beforeEach(async () => {
    clock = START;
    await knexA('rate_limit_counters').truncate();
  });

  it('lets an anonymous caller make 5 requests a minute, counting down, then answers 429', async () => {
    for (const left of ['4', '3', '2', '1', '0']) {
      const res = await a.get('/scan');
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('X-RateLimit-Limit'), '5');
      assert.equal(remaining(res), left);
      assert.equal(res.headers.get('X-RateLimit-Reset'), '30');
    }
    const refused = await a.get('/scan');
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('Retry-After'), '30');
    assert.equal(remaining(refused), '0');
    assert.equal(refused.headers.get('X-RateLimit-Limit'), '5');
    assert.equal(refused.body.error, 'rate_limited');
    assert.match(refused.body.message, /5 requests per minute/);
    assert.equal(refused.body.request_id, refused.headers.get('X-Request-ID'));
  });

  it("gives an authenticated workspace its plan's 60 a minute, then 429", async () => {
    const { key } = await createApiKey(knexA, { workspace: 'free-ws', role: 'agent' });
    for (let i = 1; i <= 60; i++) {
      const res = await a.get('/scan', key);
      assert.equal(res.status, 200, `request ${i}`);
      assert.equal(res.headers.get('X-RateLimit-Limit'), '60');
      assert.equal(remaining(res), String(60 - i));
    }
    const refused = await a.get('/scan', key);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error, 'rate_limited');
    assert.ok(refused.headers.get('Retry-After'));
  });

  it('follows the plan of the workspace', async () => {
    const { key } = await createApiKey(knexA, { workspace: 'pro-ws', role: 'agent' });
    await updateWorkspace(knexA, 'pro-ws', { plan: 'pro' });
    const res = await a.get('/scan', key);
    assert.equal(res.headers.get('X-RateLimit-Limit'), String(plans.plans.pro!.rate_limit_per_minute));
    assert.equal(remaining(res), '599');
  });

  it('keeps separate buckets per route and per caller', async () => {
    for (let i = 0; i < 5; i++) assert.equal((await a.get('/scan')).status, 200);
    assert.equal((await a.get('/scan')).status, 429);
    // Same anonymous caller, another route.
    assert.equal(remaining(await a.get('/jobs')), '4');
    // Same route, two workspaces: neither shares the anonymous bucket nor each other's.
    const one = (await createApiKey(knexA, { workspace: 'ws-one', role: 'agent' })).key;
    const two = (await createApiKey(knexA, { workspace: 'ws-two', role: 'admin' })).key;
    const res1 = await a.get('/scan', one);
    assert.equal(res1.status, 200);
    assert.equal(remaining(res1), '59');
    assert.equal(remaining(await a.get('/scan', one)), '58');
    assert.equal(remaining(await a.get('/scan', two)), '59');
    // Two keys of one workspace share the workspace's bucket.
    const oneAgain = (await createApiKey(knexA, { workspace: 'ws-one', role: 'admin' })).key;
    assert.equal(remaining(await a.get('/scan', oneAgain)), '57');
  });

  it('shares one bucket between two API processes on the same database', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await a.get('/scan')).status, 200);
    assert.equal(remaining(await b.get('/scan')), '1');
    assert.equal(remaining(await b.get('/scan')), '0');
    const sixth = await b.get('/scan');
    assert.equal(sixth.status, 429);
    assert.equal((await a.get('/scan')).status, 429);
  });

  it('never lets concurrent requests on both processes overspend', async () => {
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).get('/jobs')));
    assert.equal(results.filter((r) => r.status === 200).length, 5);
    assert.equal(results.filter((r) => r.status === 429).length, 25);
    const left = results
      .filter((r) => r.status === 200)
      .map((r) => remaining(r))
      .sort();
    assert.deepEqual(left, ['0', '1', '2', '3', '4']);
  });

  it("keeps the headers on the route's own error responses", async () => {
    const res = await a.get('/invalid');
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'invalid_request');
    assert.equal(res.headers.get('X-RateLimit-Limit'), '5');
    assert.equal(remaining(res), '4');
    assert.equal(res.headers.get('X-RateLimit-Reset'), '30');
    // Failed requests count too: the limit guards the route, not successful answers.
    for (let i = 0; i < 4; i++) await a.get('/invalid');
    const refused = await a.get('/invalid');
    assert.equal(refused.status, 429);
  });

  it('puts invalid keys through auth first: 401, not counted as anonymous', async () => {
    const res = await a.get('/scan', 'pf_notarealkey');
    assert.equal(res.status, 401);
    assert.equal(remaining(await a.get('/scan')), '4');
  });

  it('does not count the previous window', async () => {
    const previous = new Date(Date.UTC(2026, 10, 22, 9, 59, 0));
    await knexA('rate_limit_counters').insert({ bucket: 'scan:ip:127.0.0.1', window_start: previous, count: 1000 });
    const res = await a.get('/scan');
    assert.equal(res.status, 200);
    assert.equal(remaining(res), '4');
  });

  it('starts afresh when the clock reaches the next minute', async () => {
    for (let i = 0; i < 5; i++) await a.get('/scan');
    clock = new Date('2026-11-22T10:00:59.900Z');
    const refused = await a.get('/scan');
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('Retry-After'), '1');
    clock = new Date('2026-11-22T10:01:00.000Z');
    const next = await a.get('/scan');
    assert.equal(next.status, 200);
    assert.equal(remaining(next), '4');
    assert.equal(next.headers.get('X-RateLimit-Reset'), '60');
  });

  it('fails loudly when mounted before auth, instead of holding a workspace to the anonymous limit', async () => {
    const { key } = await createApiKey(knexA, { workspace: 'misordered-ws', role: 'agent' });
    assert.equal((await a.get('/misordered', key)).status, 500);
    assert.equal((await a.get('/misordered')).status, 200);
  });

  it('lets the environment overrides replace the plan values', async () => {
    const overrides = rateLimitOverridesFromEnv({
      PREFLIGHT_RATE_LIMIT_ANON: '2',
      PREFLIGHT_RATE_LIMIT_WORKSPACE: '3',
    });
    assert.deepEqual(overrides, { anonymous: 2, workspace: 3 });
    const api = await startApi(knexA, { overrides });
    try {
      const { key } = await createApiKey(knexA, { workspace: 'override-ws', role: 'agent' });
      await updateWorkspace(knexA, 'override-ws', { plan: 'enterprise' });
      assert.deepEqual(
        [await api.get('/scan'), await api.get('/scan'), await api.get('/scan')].map((r) => r.status),
        [200, 200, 429],
      );
      const ws = await Promise.all([1, 2, 3, 4].map(() => api.get('/jobs', key)));
      assert.deepEqual(ws.map((r) => r.status).sort(), [200, 200, 200, 429]);
      assert.equal(ws[0]!.headers.get('X-RateLimit-Limit'), '3');
    } finally {
      await api.close();
    }
  });

  describe('expired windows', () => {
    const at = (iso: string) => new Date(iso);
    const seed = () =>
      knexA('rate_limit_counters').insert([
        { bucket: 'scan:ip:10.0.0.1', window_start: at('2026-11-22T09:57:00Z'), count: 3 },
        { bucket: 'scan:ip:10.0.0.2', window_start: at('2026-11-22T09:58:00Z'), count: 3 },
        { bucket: 'scan:ip:10.0.0.1', window_start: at('2026-11-22T09:59:00Z'), count: 3 },
        { bucket: 'scan:ip:10.0.0.1', window_start: at('2026-11-22T10:00:00Z'), count: 3 },
      ]);
    const windows = async () =>
      (await knexA('rate_limit_counters').orderBy('window_start').select('window_start')).map((r) =>
        (r.window_start as Date).toISOString(),
      );

    it('purgeExpired deletes windows older than two minutes and keeps the rest', async () => {
      await seed();
      const limiter = new RateLimiter(knexA, { now: () => clock, purgeProbability: 0 });
      assert.equal(await limiter.purgeExpired(), 2);
      assert.deepEqual(await windows(), ['2026-11-22T09:59:00.000Z', '2026-11-22T10:00:00.000Z']);
    });

    it('some hits purge in the background', async () => {
      await seed();
      const never = new RateLimiter(knexA, { now: () => clock, random: () => 0.5, purgeProbability: 0.01 });
      await never.hit('scan:ip:10.0.0.9', 5);
      await never.idle();
      assert.equal((await windows()).length, 5);
      const always = new RateLimiter(knexA, { now: () => clock, random: () => 0.001, purgeProbability: 0.01 });
      await always.hit('scan:ip:10.0.0.9', 5);
      await always.idle();
      assert.deepEqual(await windows(), [
        '2026-11-22T09:59:00.000Z',
        '2026-11-22T10:00:00.000Z',
        '2026-11-22T10:00:00.000Z',
      ]);
    });

    it('reports a failed background purge without failing the hit', async () => {
      const errors: unknown[] = [];
      class BrokenPurge extends RateLimiter {
        override async purgeExpired(): Promise<number> {
          throw new Error('purge failed');
        }
      }
      const limiter = new BrokenPurge(knexA, {
        now: () => clock,
        random: () => 0,
        onPurgeError: (e) => errors.push(e),
      });
      const res = await limiter.hit('broken-purge', 1);
      assert.equal(res.allowed, true);
      await limiter.idle();
      assert.equal(errors.length, 1);
      assert.match(String(errors[0]), /purge failed/);
    });
  });

  it("uses the database's clock when none is injected", async () => {
    const limiter = new RateLimiter(knexA, { purgeProbability: 0 });
    const first = await limiter.hit('db-clock', 2);
    assert.deepEqual({ ...first, resetSeconds: 0 }, { allowed: true, remaining: 1, limit: 2, resetSeconds: 0 });
    assert.ok(first.resetSeconds >= 1 && first.resetSeconds <= 60, String(first.resetSeconds));
    const [row] = await knexA('rate_limit_counters').where({ bucket: 'db-clock' }).select('window_start');
    assert.equal((row.window_start as Date).getUTCSeconds(), 0);
    assert.equal((row.window_start as Date).getUTCMilliseconds(), 0);
  });

  it('refuses a limit of 0 and rejects a nonsense limit', async () => {
    const limiter = new RateLimiter(knexA, { now: () => clock, purgeProbability: 0 });
    assert.deepEqual(await limiter.hit('closed', 0), { allowed: false, remaining: 0, limit: 0, resetSeconds: 30 });
    await assert.rejects(limiter.hit('closed', 1.5), RangeError);
    await assert.rejects(limiter.hit('closed', -1), RangeError);
  });
});

describe('rate limit configuration', () => {
  it('reads the overrides from the environment, and only whole numbers', () => {
    assert.deepEqual(rateLimitOverridesFromEnv({}), { anonymous: undefined, workspace: undefined });
    assert.deepEqual(rateLimitOverridesFromEnv({ PREFLIGHT_RATE_LIMIT_ANON: '0' }), {
      anonymous: 0,
      workspace: undefined,
    });
    assert.throws(() => rateLimitOverridesFromEnv({ PREFLIGHT_RATE_LIMIT_ANON: 'lots' }), ConfigError);
    assert.throws(() => rateLimitOverridesFromEnv({ PREFLIGHT_RATE_LIMIT_WORKSPACE: '-5' }), ConfigError);
    assert.throws(() => rateLimitOverridesFromEnv({ PREFLIGHT_RATE_LIMIT_WORKSPACE: '2.5' }), ConfigError);
  });

  it('has the spec defaults in rules/plans.json: anonymous 5, free workspace 60', () => {
    assert.equal(plans.anonymous.rate_limit_per_minute, 5);
    assert.equal(plans.plans[plans.default_plan]!.rate_limit_per_minute, 60);
  });

  it('counts anonymous callers per IPv4 address and per IPv6 /64', () => {
    assert.equal(clientBucketAddress('203.0.113.7'), '203.0.113.7');
    assert.equal(clientBucketAddress('::ffff:203.0.113.7'), '203.0.113.7');
    assert.equal(clientBucketAddress('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
    assert.equal(clientBucketAddress('2001:db8:1:2:ffff::9'), '2001:db8:1:2::/64');
    assert.equal(clientBucketAddress(''), 'unknown');
  });
});
