// Issue 11: property-based fuzzing of every route's body and query (fast-check, fixed seed). Whatever arrives, the
// service answers below 500, and every error is JSON with a request id. The routes are read from the app's own
// routers, so a route added later is fuzzed without touching this file.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type Router from '@koa/router';
import fc from 'fast-check';
import { ROOT_DIR } from '../../core/config.ts';
import { createHttpApp } from '../../server/http-app.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const SITES = path.join(ROOT_DIR, '..', 'shared', 'eval', 'phishing', 'sites');
const SEED = 1_124_011;
/** Generated requests per route (every route gets its own run, so none is left out by chance). */
const RUNS_PER_ROUTE = 12;

interface Route {
  method: string;
  path: string;
}

/** Every (method, path) the app's routers answer. */
function routesOf(koa: ReturnType<typeof createHttpApp>): Route[] {
  const routes = new Map<string, Route>();
  for (const mw of koa.middleware as ({ router?: Router } & object)[]) {
    for (const layer of mw.router?.stack ?? []) {
      if (typeof layer.path !== 'string') continue;
      for (const method of layer.methods) {
        if (method === 'HEAD') continue;
        routes.set(`${method} ${layer.path}`, { method, path: layer.path });
      }
    }
  }
  return [...routes.values()].sort((a, b) => `${a.method}${a.path}`.localeCompare(`${b.method}${b.path}`));
}

// Field names the routes read, so generated bodies reach past "unknown field" into the handlers.
const FIELDS = [
  'domain',
  'url',
  'target',
  'domains',
  'force_scan',
  'content',
  'page_text',
  'text',
  'intent',
  'depth',
  'connector',
  'prompt',
  'kind',
  'tool',
  'arguments',
  'tool_policy',
  'connectors',
  'high_impact_tools',
  'approve_tools',
  'tool_definition',
  'jsonrpc',
  'id',
  'method',
  'params',
  'name',
  'tool_name',
  'tool_input',
  'hook_event_name',
  'scan_id',
  'decision',
  'status',
  'title',
  'severity',
  'mode',
  'allowed_tools',
  'denied_tools',
  'limit',
];
const QUERY_KEYS = ['limit', 'status', 'domain', 'force_scan', 'cursor', 'q', 'kind', 'x'];

const nastyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    'http://%ff@northwind-outfitters.com/',
    'https://%zz%@x.com',
    'localhost',
    'http://127.0.0.1/',
    '10.0.0.1',
    '[::1]',
    'northwind-outfitters.com',
    'docview-secure-login.top',
    'wire_money\u200b',
    '\uff57ire_money',
    '1e2',
    '0x10',
    ' 10',
    '-1',
    '9'.repeat(30),
    'svc_check_action',
    'tools/call',
    'deep',
    'tool_call',
    'prompt',
    'admin',
    '\u0000',
    '%',
    'a'.repeat(5000),
  ),
);
const leaf = fc.oneof(nastyString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 8 })), tie('node'), { maxKeys: 4 }),
  ),
})).node;
// Destinations as the URL-taking routes read them: broken escapes, private and loopback names, junk.
const destination = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'http://%ff@northwind-outfitters.com/',
      'https://user:%E0%A4%A@docview-secure-login.top/x',
      'http://localhost/',
      'http://intranet/',
      'http://[::ffff:127.0.0.1]/',
      'http://0x7f.1/',
      'northwind-outfitters.com',
      'https://northwind-outfitters.com/%',
      'javascript:alert(1)',
      '',
    ),
  },
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  nastyString,
);
/** Bodies shaped like the real ones, with hostile values where the handlers look. */
const shaped = fc.oneof(
  fc.record({ domain: destination, force_scan: fc.oneof(fc.boolean(), leaf) }, { requiredKeys: ['domain'] }),
  fc.record({ domains: fc.array(fc.oneof(destination, value), { maxLength: 4 }) }),
  fc.record(
    { url: destination, depth: fc.constantFrom('fast', 'deep', 'x'), intent: nastyString, page_text: nastyString },
    { requiredKeys: ['url'] },
  ),
  fc.record({ kind: fc.constantFrom('tool_call', 'prompt', 'action'), tool: nastyString, arguments: value }),
  fc.record({
    jsonrpc: fc.constant('2.0'),
    id: fc.oneof(fc.nat(), nastyString),
    method: fc.constantFrom('tools/call', 'initialize', 'tools/list', 'ping', 'x'),
    params: fc.record({
      name: fc.constantFrom('svc_check_action', 'svc_check_content', 'x'),
      arguments: fc.oneof(fc.record({ url: destination, depth: fc.constantFrom('fast', 'deep') }), value),
    }),
  }),
);
const body = fc.oneof(
  shaped.map((o) => JSON.stringify(o)),
  shaped.map((o) => JSON.stringify(o)),
  fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 6 }).map((o) => JSON.stringify(o)),
  value.map((v) => JSON.stringify(v)),
  fc.constantFrom('', '{', '[]', 'null', '{"a":1,}', '\u0000', '{"domain": "a.com"'),
  fc.integer({ min: 65, max: 2000 }).map((d) => `${'['.repeat(d)}${']'.repeat(d)}`),
);
const query = fc
  .array(
    fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 6 })), fc.oneof(nastyString, destination)),
    {
      maxLength: 4,
    },
  )
  .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));
const param = fc.oneof(nastyString, fc.nat().map(String), fc.uuid());

describe('fuzzing every route (no 5xx, JSON errors with a request id)', () => {
  let t: TestServer;
  let keys: Record<string, string | undefined>;
  let routes: Route[];
  before(async () => {
    t = await startTestServer({ labSitesDir: SITES, worker: 'off' });
    keys = { none: undefined, agent: await t.key('fuzz'), admin: await t.key('fuzz', 'admin'), bad: 'pf_not_a_key' };
    routes = routesOf(createHttpApp(t.app));
  });
  after(() => t.close());

  it('finds the routes', () => {
    assert.ok(routes.length >= 15, routes.map((r) => `${r.method} ${r.path}`).join(', '));
  });

  it('answers every generated request below 500, errors as JSON with a request id', async () => {
    for (const [index, route] of routes.entries()) {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('none', 'agent', 'admin', 'bad'),
          body,
          query,
          param,
          fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain'),
          async (who, rawBody, q, p, contentType) => {
            const urlPath = route.path.replace(/:[A-Za-z_]+/g, () => encodeURIComponent(p));
            const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
            const res = await t.request(route.method, `${urlPath}${q ? `?${q}` : ''}`, {
              key: keys[who],
              ...(hasBody ? { raw: rawBody, headers: { 'Content-Type': contentType } } : {}),
            });
            const where = `${route.method} ${urlPath}?${q} as ${who}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
            assert.ok(res.status < 500, where);
            if (res.status >= 400) {
              assert.equal(typeof res.body, 'object', where);
              assert.equal(typeof res.body?.error, 'string', where);
              assert.equal(typeof res.body?.request_id, 'string', where);
            }
          },
        ),
        { seed: SEED + index, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
      );
    }
  });
});
