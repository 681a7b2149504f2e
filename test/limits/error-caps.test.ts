// Issue 11 item 2: a body of many invalid keys must not be echoed back as a 400 many times its size.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_REPORTED_ERRORS } from '../../server/requests/validation.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const manyKeys = (n: number, width = 1) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}${'x'.repeat(width)}`, 1]));

describe('validation errors are capped', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('an anonymous /v1/scan body of thousands of unknown keys gets the first few errors and the count', async () => {
    const body = manyKeys(4000);
    const sent = JSON.stringify(body).length;
    const res = await fetch(`${server.baseUrl}/v1/scan`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    assert.equal(res.status, 400);
    assert.ok(text.length < sent, `response ${text.length} bytes for a ${sent}-byte body`);
    const json = JSON.parse(text);
    assert.equal(json.details.error_count, 4000);
    assert.equal(json.details.errors.length, MAX_REPORTED_ERRORS);
    assert.match(json.message, /and 3990 more errors/);
    assert.ok(json.request_id);
  });

  it('PUT /agent/policy with a large invalid body answers a small 400', async () => {
    const key = await server.key('acme', 'admin');
    const body = { ...manyKeys(20_000, 40), tool_policy: { denied_tools: Array(1000).fill(7) } };
    const sent = JSON.stringify(body).length;
    const res = await fetch(`${server.baseUrl}/agent/policy`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', Authorization: `Api-Key ${key}` },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    assert.equal(res.status, 400);
    assert.ok(text.length < 20_000, `response of ${text.length} bytes for a ${sent}-byte body`);
    assert.equal(JSON.parse(text).details.error_count, 21_000);
  });

  it('long key names are clipped in the message', async () => {
    const res = await server.request('POST', '/v1/scan', { body: { domain: 'a.com', ['y'.repeat(30_000)]: 1 } });
    assert.equal(res.status, 400);
    assert.ok(JSON.stringify(res.body).length < 2000);
  });
});
