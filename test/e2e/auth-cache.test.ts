// Two API processes on one database, each caching key lookups: a revocation, a policy change or a workspace
// update made anywhere (the other process, plain SQL) shows on the very next request to either process.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import knexFactory, { type Knex } from 'knex';
import { freePort } from '../../core/platform/db/embedded-postgres.ts';
import { createApiKey, revokeApiKey, updateWorkspace } from '../../core/services/workspaces/api-keys.ts';
import { PrincipalCache } from '../../core/services/workspaces/principal-cache.ts';
import { createTestDatabase } from '../support/database.ts';
import { startService } from '../support/processes.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

type Service = Awaited<ReturnType<typeof startService>>;

describe('key and workspace cache across two API processes', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let knex: Knex;
  let a: Service;
  let b: Service;
  // A NOTIFY reaches each process on its own listener connection, a moment after the commit (longer on a starved
  // CPU). "The next request" is the first one after that process has taken the invalidation in, which each
  // process reports on /metrics; the test waits for both before it asks.
  const invalidationsOf = async (s: Service) => {
    const text = await (await fetch(`http://127.0.0.1:${s.port}/metrics`)).text();
    const line = /^preflight_auth_cache_events_total\{event="invalidation"\} (\d+)/m.exec(text);
    return Number(line?.[1] ?? 0);
  };
  const received = async () => [await invalidationsOf(a), await invalidationsOf(b)] as const;
  const delivered = async (before: readonly [number, number]) => {
    let now = await received();
    for (let i = 0; i < 500 && !(now[0] > before[0] && now[1] > before[1]); i++) {
      await new Promise((r) => setTimeout(r, 10));
      now = await received();
    }
    assert.ok(now[0] > before[0] && now[1] > before[1], `invalidation not taken in: ${before} → ${now}`);
  };

  const env = async (url: string) => ({
    ...process.env,
    DATABASE_URL: url,
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    PREFLIGHT_WORKER: 'off',
  });
  const call = (s: Service, method: string, path: string, key: string, body?: unknown) =>
    fetch(`http://127.0.0.1:${s.port}${path}`, {
      method,
      headers: { Authorization: `Api-Key ${key}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const check = (s: Service, key: string) => call(s, 'POST', '/agent/check-content', key, { content: 'hello there' });
  /** A few requests on both, so each process has the key in its cache before the change. */
  const warm = async (key: string) => {
    for (let i = 0; i < 3; i++) {
      assert.equal((await check(a, key)).status, 200);
      assert.equal((await check(b, key)).status, 200);
    }
  };

  before(async () => {
    database = await createTestDatabase();
    // The first process migrates; the second starts after it so the two do not race the migration lock.
    a = await startService(await env(database.url));
    b = await startService(await env(database.url));
    knex = knexFactory({ client: 'pg', connection: database.url, pool: { min: 0, max: 2 } });
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await knex?.destroy();
    await database?.drop();
  });

  it('a key revoked through one process fails with 401 on the next request to the other', async () => {
    const { key, id } = await createApiKey(knex, { workspace: 'acme', role: 'agent' });
    await warm(key);
    const seen = await received();
    // "One process" here is a third connection: the change is made in the database, not in either service.
    assert.equal(await revokeApiKey(knex, id), 1);
    await delivered(seen);
    const res = await check(b, key);
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as { message: string }).message, 'API key has been revoked');
    assert.equal((await check(a, key)).status, 401);
  });

  it('a policy changed on one process applies on the next request to the other', async () => {
    const admin = (await createApiKey(knex, { workspace: 'globex', role: 'admin' })).key;
    const agent = (await createApiKey(knex, { workspace: 'globex', role: 'agent' })).key;
    await warm(agent);
    const toolCall = { tool: 'search_docs', arguments: { query: 'release notes' } };
    const before = (await (
      await call(b, 'POST', '/agent/guardrail', agent, { kind: 'tool_call', ...toolCall })
    ).json()) as {
      agent_decision: string;
    };
    const seen = await received();
    const put = await call(a, 'PUT', '/agent/policy', admin, {
      tool_policy: { denied_tools: ['search_docs'] },
    });
    assert.equal(put.status, 200, await put.clone().text());
    await delivered(seen);
    const policy = (await (await call(b, 'GET', '/agent/policy', agent)).json()) as {
      tool_policy: { denied_tools: string[] };
    };
    assert.deepEqual(policy.tool_policy.denied_tools, ['search_docs']);
    const afterChange = (await (
      await call(b, 'POST', '/agent/guardrail', agent, { kind: 'tool_call', ...toolCall })
    ).json()) as { agent_decision: string };
    assert.equal(before.agent_decision, 'allow');
    assert.equal(afterChange.agent_decision, 'block', 'the newly denied tool is refused at once');
  });

  it('turning agent checks off for a workspace (plain SQL update) answers 404 at once on both processes', async () => {
    const { key } = await createApiKey(knex, { workspace: 'initech', role: 'agent' });
    await warm(key);
    let seen = await received();
    assert.equal(await updateWorkspace(knex, 'initech', { agent_checks_enabled: false }), true);
    await delivered(seen);
    assert.equal((await check(b, key)).status, 404);
    assert.equal((await check(a, key)).status, 404);
    seen = await received();
    await knex('workspaces').where({ name: 'initech' }).update({ agent_checks_enabled: true });
    await delivered(seen);
    assert.equal((await check(a, key)).status, 200);
    assert.equal((await check(b, key)).status, 200);
  });
});

// In one process, where the cache can be watched: what happens when the listener connection drops. (Between the
// drop and the moment the process notices it, a lost NOTIFY cannot be known; the 10 s TTL bounds that window.)
describe('key cache when the listener connection drops', () => {
  let t: TestServer;
  let other: Knex;
  let cache: PrincipalCache;
  before(async () => {
    t = await startTestServer();
    cache = t.app.container.resolve(PrincipalCache);
    // Changes come from another connection, as from another process: nothing is invalidated locally.
    other = knexFactory({ client: 'pg', connection: t.databaseUrl, pool: { min: 0, max: 2 } });
  });
  after(async () => {
    await other?.destroy();
    await t?.close();
  });
  const check = async (key: string) =>
    (await t.request('POST', '/agent/check-content', { key, body: { content: 'hello there' } })).status;
  const until = async (cond: () => boolean) => {
    for (let i = 0; i < 400 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok(cond(), 'timed out waiting for the listener');
  };

  it('serves from the cache, drops it when the listener goes, and trusts nothing from before the drop', async () => {
    const { key, id } = await createApiKey(other, { workspace: 'acme', role: 'agent' });
    assert.equal(await check(key), 200);
    const hits = cache.stats.hits;
    assert.equal(await check(key), 200);
    assert.ok(cache.stats.hits > hits, 'the second request is answered from the cache');

    const flushes = cache.stats.flushes;
    await other.raw(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where application_name = 'preflight-listener' and datname = current_database()`,
    );
    await until(() => cache.stats.flushes > flushes); // the process noticed: cache flushed and off
    // Revoked while the listener is down or reconnecting: its NOTIFY may never arrive, the 401 must.
    await revokeApiKey(other, id);
    assert.equal(await check(key), 401);

    await until(() => cache.stats.flushes >= flushes + 2); // listening again (reconnect flushes once more)
    const second = await createApiKey(other, { workspace: 'acme', role: 'agent' });
    assert.equal(await check(second.key), 200);
    const hitsAgain = cache.stats.hits;
    assert.equal(await check(second.key), 200);
    assert.ok(cache.stats.hits > hitsAgain, 'cached again once listening');
    const invalidations = cache.stats.invalidations;
    await revokeApiKey(other, second.id);
    await until(() => cache.stats.invalidations > invalidations); // the NOTIFY reached this process's listener
    assert.equal(await check(second.key), 401);
  });
});
