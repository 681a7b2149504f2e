// Issue 11 item 1: a caller without a key must not make the service buffer a body. Raw sockets play the attacker:
// declare a large Content-Length, send a part, stall, and see the service answer from the headers and hang up.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../core/config.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

interface RawResult {
  /** The response head and whatever body arrived before the server closed the socket. */
  response: string;
  closedByServer: boolean;
}

/**
 * Sends `head` and `sent` bytes of body, never the rest, and waits until the server closes the socket or
 * `waitMs` passes (then the socket is destroyed from our side and `closedByServer` is false).
 */
function stalledUpload(baseUrl: string, head: string, sent: Buffer, waitMs = 15_000): Promise<RawResult> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let response = '';
    let settled = false;
    const done = (closedByServer: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ response, closedByServer });
    };
    const timer = setTimeout(() => done(false), waitMs);
    socket.on('data', (d) => {
      response += d.toString('latin1');
    });
    socket.on('end', () => done(true));
    socket.on('close', () => done(true));
    socket.on('error', () => done(true));
    socket.write(head);
    socket.write(sent);
  });
}

const statusOf = (raw: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
const DECLARED = 1_900_000;

describe('pre-auth resource limits', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('answers 401 from the headers and closes the socket when a keyless upload stalls', async () => {
    const head =
      'POST /agent/check-content HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${DECLARED}\r\n\r\n`;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => stalledUpload(server.baseUrl, head, Buffer.alloc(64 * 1024, 0x20))),
    );
    for (const r of results) {
      assert.equal(statusOf(r.response), 401, r.response.slice(0, 200));
      assert.match(r.response, /"request_id"/);
      assert.ok(r.closedByServer, 'the server hangs up instead of draining the declared body');
    }
  });

  it('refuses an anonymous scan body larger than the anonymous limit from its declared length', async () => {
    const head =
      'POST /v1/scan HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${DECLARED}\r\n\r\n`;
    const r = await stalledUpload(server.baseUrl, head, Buffer.from('{"domain": "'));
    assert.equal(statusOf(r.response), 413, r.response.slice(0, 200));
    assert.ok(r.closedByServer);
  });

  it('refuses an anonymous chunked body once it passes the anonymous limit', async () => {
    const limit = server.app.config.anonymousBodyLimitBytes;
    const chunk = Buffer.alloc(limit + 1024, 0x20);
    const head =
      'POST /scan/bulk HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      'Transfer-Encoding: chunked\r\n\r\n';
    const body = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
    const r = await stalledUpload(server.baseUrl, head, body);
    assert.equal(statusOf(r.response), 413, r.response.slice(0, 200));
    assert.ok(r.closedByServer);
  });

  it('a keyed caller still gets the full body limit', async () => {
    const key = await server.key('acme');
    const content = 'x'.repeat(server.app.config.anonymousBodyLimitBytes * 2);
    const res = await server.request('POST', '/agent/check-content', { key, body: { content } });
    assert.equal(res.status, 200);
  });
});

describe('HTTP server deadlines and connection cap', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      http: { headersTimeoutMs: 1000, requestTimeoutMs: 2000, keepAliveTimeoutMs: 500, maxConnections: 4 },
    });
  });
  after(async () => {
    await server.close();
  });

  it('drops a client that never finishes its headers', async () => {
    const r = await stalledUpload(server.baseUrl, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n', Buffer.alloc(0));
    assert.ok(r.closedByServer, 'closed after headersTimeout');
    assert.equal(statusOf(r.response), 408);
  });

  it('refuses connections past the cap', async () => {
    const { port } = new URL(server.baseUrl);
    const idle = await Promise.all(
      Array.from(
        { length: 4 },
        () =>
          new Promise<net.Socket>((resolve) => {
            const s = net.connect(Number(port), '127.0.0.1', () => resolve(s));
            s.on('error', () => {});
          }),
      ),
    );
    try {
      const extra = await stalledUpload(
        server.baseUrl,
        'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
        Buffer.alloc(0),
      );
      assert.ok(extra.closedByServer);
      assert.equal(extra.response, '', 'the fifth connection is dropped without an answer');
    } finally {
      for (const s of idle) s.destroy();
    }
  });
});

describe('server limit settings', () => {
  it('are read from the environment and validated', () => {
    const c = loadConfig({ PREFLIGHT_REQUEST_TIMEOUT_MS: '20000', PREFLIGHT_MAX_CONNECTIONS: '50' });
    assert.equal(c.http.requestTimeoutMs, 20_000);
    assert.equal(c.http.maxConnections, 50);
    assert.throws(
      () => loadConfig({ PREFLIGHT_HEADERS_TIMEOUT_MS: '60000', PREFLIGHT_REQUEST_TIMEOUT_MS: '30000' }),
      ConfigError,
    );
    for (const bad of ['1e4', '0x10', ' 10', '10.0', 'many']) {
      assert.throws(() => loadConfig({ PREFLIGHT_MAX_CONNECTIONS: bad }), ConfigError, bad);
    }
    assert.throws(() => loadConfig({ PREFLIGHT_ANONYMOUS_BODY_LIMIT_BYTES: '10' }), ConfigError);
  });
});
