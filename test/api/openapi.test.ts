import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { validate } from '@readme/openapi-parser';
import { createHttpApp } from '../../server/http-app.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

interface RouterLayer {
  methods: string[];
  path: string;
}

/** Every (method, path) the live app routes, read from its routers, with `:id` spelled `{id}`. */
function routedOperations(t: TestServer): Set<string> {
  const koa = createHttpApp(t.app);
  const out = new Set<string>();
  for (const mw of koa.middleware as unknown as { router?: { stack: RouterLayer[] } }[]) {
    for (const layer of mw.router?.stack ?? []) {
      for (const method of layer.methods) {
        if (method === 'HEAD') continue;
        out.add(`${method.toLowerCase()} ${layer.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
      }
    }
  }
  return out;
}

describe('OpenAPI document and docs page', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t.close();
  });

  it('GET /openapi.json is a valid OpenAPI 3.1 document', async () => {
    const res = await t.request('GET', '/openapi.json');
    assert.equal(res.status, 200);
    assert.equal(res.body.openapi, '3.1.0');
    const result = await validate(structuredClone(res.body));
    assert.equal(result.valid, true, JSON.stringify((result as { errors?: unknown }).errors));
  });

  it('documents every route the app answers, and nothing it does not', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const documented = new Set<string>();
    for (const [p, ops] of Object.entries(doc.paths)) for (const m of Object.keys(ops)) documented.add(`${m} ${p}`);
    const routed = routedOperations(t);
    assert.ok(routed.size > 20, `read ${routed.size} routes`);
    assert.deepEqual([...routed].filter((r) => !documented.has(r)).sort(), [], 'routes without documentation');
    assert.deepEqual([...documented].filter((d) => !routed.has(d)).sort(), [], 'documented operations without a route');
  });

  it('gives every operation its error statuses with the JSON error body, and request bodies as JSON schemas', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body;
    const check = doc.paths['/agent/check-content'].post;
    assert.equal(check.requestBody.content['application/json'].schema.type, 'object');
    assert.ok('content' in check.requestBody.content['application/json'].schema.properties);
    for (const status of ['400', '401', '403', '413', '415', '500']) {
      assert.equal(check.responses[status].content['application/json'].schema.$ref, '#/components/schemas/Error');
    }
    assert.deepEqual(doc.components.schemas.Error.required, ['error', 'message', 'request_id']);
  });

  it('serves the docs page and its assets from the service itself (no CDN), under a strict CSP', async () => {
    const page = await fetch(`${t.baseUrl}/docs`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'self'/);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(assets.length >= 3);
    for (const asset of assets) {
      assert.ok(asset.startsWith('/docs/assets/'), asset);
      const res = await fetch(`${t.baseUrl}${asset}`);
      assert.equal(res.status, 200, asset);
      assert.ok((await res.arrayBuffer()).byteLength > 0);
    }
    const missing = await t.request('GET', '/docs/assets/../../package.json');
    assert.equal(missing.status, 404);
  });
});
