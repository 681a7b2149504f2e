// Issue 11 items 6 and 8: bad input is a JSON 4xx with a request id, never a 5xx, on every route that takes it.
import assert from 'node:assert/strict';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { ROOT_DIR } from '../../core/config.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const SITES = path.join(ROOT_DIR, '..', 'shared', 'eval', 'phishing', 'sites');
const BAD_USERINFO = 'http://%ff@northwind-outfitters.com/';

/** `{"a":{"a":…}}` nested `depth` deep, as text (JSON.stringify of such a value would itself recurse). */
const nested = (depth: number, leaf = '1') => `${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`;

function assertJsonError(res: { status: number; body: any }, status?: number) {
  assert.ok(res.status < 500, `5xx: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  if (status !== undefined) assert.equal(res.status, status, JSON.stringify(res.body).slice(0, 300));
  if (res.status >= 400) {
    assert.equal(typeof res.body, 'object', `not JSON: ${String(res.body).slice(0, 200)}`);
    assert.equal(typeof res.body.error, 'string');
    assert.equal(typeof res.body.request_id, 'string');
  }
}

describe('no 5xx on bad input', () => {
  let t: TestServer;
  let key: string;
  let admin: string;
  const rpc = (body: string) =>
    t.request('POST', '/agent/mcp', { key, raw: body, headers: { Accept: 'application/json, text/event-stream' } });

  before(async () => {
    t = await startTestServer({ labSitesDir: SITES });
    key = await t.key('acme');
    admin = await t.key('acme', 'admin');
  });
  after(() => t.close());

  describe('%ff in URL userinfo', () => {
    it('POST /v1/scan', async () =>
      assertJsonError(await t.request('POST', '/v1/scan', { body: { domain: BAD_USERINFO } })));
    it('POST /scan_async', async () =>
      assertJsonError(await t.request('POST', '/scan_async', { key, body: { domain: BAD_USERINFO } })));
    it('POST /scan/bulk', async () =>
      assertJsonError(await t.request('POST', '/scan/bulk', { key, body: { domains: [BAD_USERINFO] } })));
    it('POST /agent/check-action', async () =>
      assertJsonError(await t.request('POST', '/agent/check-action', { key, body: { url: BAD_USERINFO } })));
    it('POST /agent/guardrail', async () =>
      assertJsonError(await t.request('POST', '/agent/guardrail', { key, body: { url: BAD_USERINFO } })));
    it('GET /scan/jobs?domain=', async () =>
      assertJsonError(await t.request('GET', `/scan/jobs?domain=${encodeURIComponent(BAD_USERINFO)}`, { key })));
    it('MCP tools/call answers a result, not HTTP 500', async () => {
      const res = await rpc(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'svc_check_action', arguments: { url: BAD_USERINFO } },
        }),
      );
      assert.equal(res.status, 200);
      assert.ok(res.body.result, JSON.stringify(res.body));
    });
  });

  describe('deep nesting', () => {
    it('tool arguments nested 2,000 deep are a 400 at parse time', async () => {
      const raw = `{"kind":"tool_call","tool":"search","arguments":${nested(2000)}}`;
      assertJsonError(await t.request('POST', '/agent/guardrail', { key, raw }), 400);
    });

    it('MCP arguments nested 2,000 deep are a JSON-RPC error, not HTTP 500', async () => {
      const res = await rpc(
        `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"svc_check_content","arguments":${nested(2000)}}}`,
      );
      assert.equal(res.status, 200);
      assert.equal(res.body.error.code, -32600);
    });

    it('/scan/bulk with one deeply nested entry is a 400 and commits nothing', async () => {
      const before = await t.knex('scan_jobs').count<{ count: string }[]>('* as count');
      const raw = `{"domains":["northwind-outfitters.com","example-one.com",${nested(2000, '"x"')}]}`;
      assertJsonError(await t.request('POST', '/scan/bulk', { key, raw }), 400);
      const afterCount = await t.knex('scan_jobs').count<{ count: string }[]>('* as count');
      assert.equal(afterCount[0]!.count, before[0]!.count);
    });

    it('nesting up to the limit is still accepted', async () => {
      const depth = t.app.config.jsonMaxDepth - 2;
      const raw = `{"kind":"tool_call","tool":"search","arguments":${nested(depth)}}`;
      const res = await t.request('POST', '/agent/guardrail', { key, raw });
      assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 200));
    });
  });

  describe('compressed bodies', () => {
    const post = (body: Buffer, encoding: string) =>
      fetch(`${t.baseUrl}/agent/check-content`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': encoding, Authorization: `Api-Key ${key}` },
        body,
      });
    it('a good gzip body is read', async () => {
      const res = await post(gzipSync(JSON.stringify({ content: 'hello' })), 'gzip');
      assert.equal(res.status, 200);
    });
    for (const [name, body, encoding] of [
      [
        'corrupt gzip',
        Buffer.concat([gzipSync('{"content":"hello"}').subarray(0, 12), Buffer.from('garbage!')]),
        'gzip',
      ],
      ['not gzip at all', Buffer.from('{"content":"hello"}'), 'gzip'],
      [
        'corrupt br',
        Buffer.concat([brotliCompressSync('{"content":"x"}').subarray(0, 3), Buffer.alloc(20, 0xff)]),
        'br',
      ],
      ['corrupt deflate', Buffer.from('nonsense deflate stream'), 'deflate'],
      ['unknown encoding', Buffer.from('{}'), 'zstd-ish'],
    ] as [string, Buffer, string][]) {
      it(`${name} is a JSON 4xx`, async () => {
        const res = await post(body, encoding);
        const text = await res.text();
        assert.ok(res.status >= 400 && res.status < 500, `${res.status} ${text}`);
        assert.match(text, /"request_id"/);
      });
    }
  });

  describe('smaller ones', () => {
    it('a chunked non-JSON body gets 415', async () => {
      const { port } = new URL(t.baseUrl);
      const raw: string = await new Promise((resolve) => {
        const s = net.connect(Number(port), '127.0.0.1');
        let out = '';
        s.on('data', (d) => {
          out += d;
        });
        s.on('close', () => resolve(out));
        s.on('error', () => resolve(out));
        s.write(
          `POST /agent/check-content HTTP/1.1\r\nHost: x\r\nAuthorization: Api-Key ${key}\r\nContent-Type: text/plain\r\n` +
            'Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n0\r\n\r\n',
        );
      });
      assert.match(raw, /^HTTP\/1\.1 415/);
      assert.match(raw, /"request_id"/);
    });

    it('GET /agent/mcp answers a JSON 405 with Allow', async () => {
      const res = await t.request('GET', '/agent/mcp', { key });
      assertJsonError(res, 405);
      assert.match(res.headers.get('Allow') ?? '', /POST/);
      assert.equal(res.body.error, 'method_not_allowed');
    });

    it('an unknown method is a JSON 405, not 501', async () => {
      const res = await t.request('PROPFIND', '/v1/scan');
      assertJsonError(res);
      assert.ok(res.status === 405 || res.status === 404, String(res.status));
    });

    for (const limit of ['1e2', '0x10', ' 10', '10.0', '+10', '1_0', '']) {
      it(`GET /scan/jobs?limit=${JSON.stringify(limit)} is a 400`, async () => {
        assertJsonError(await t.request('GET', `/scan/jobs?limit=${encodeURIComponent(limit)}`, { key }), 400);
      });
    }
    // Every list route parses its numbers the same strict way (server/requests/query.ts).
    for (const path of [
      '/ticketbridge/tickets?limit=',
      '/webhooks/deliveries?limit=',
      '/audit/events?limit=',
      '/usage?days=',
    ]) {
      for (const bad of ['1e2', '0x10', ' 10', '10.0']) {
        it(`GET ${path}${JSON.stringify(bad)} is a 400`, async () => {
          assertJsonError(await t.request('GET', `${path}${encodeURIComponent(bad)}`, { key: admin }), 400);
        });
      }
      it(`GET ${path}10 is fine`, async () => {
        assert.equal((await t.request('GET', `${path}10`, { key: admin })).status, 200);
      });
    }
    it('GET /scan/jobs?limit=10 is fine', async () => {
      assert.equal((await t.request('GET', '/scan/jobs?limit=10', { key })).status, 200);
    });

    it('GET /agent/policy reports only switches that exist', async () => {
      const res = await t.request('GET', '/agent/policy', { key: admin });
      assert.equal(res.status, 200);
      for (const gone of ['prompt_injection_screen', 'tool_policy', 'deep_checks']) {
        assert.ok(!(gone in res.body.flags), `${gone} is reported as a flag but cannot be switched`);
      }
    });
  });
});
