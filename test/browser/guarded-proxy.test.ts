// The browser's forward proxy on its own, driven by Node's HTTP client the way Chromium drives it: CONNECT for
// tunnels, absolute-form requests for plain HTTP. No browser needed.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { type GuardedProxy, REFUSED_HEADER, startGuardedProxy } from '../../core/evidence/browser/guarded-proxy.ts';

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

function proxyRequest(
  proxy: string,
  url: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const { hostname, port } = new URL(proxy);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { hostname, port, path: url, headers: { host: new URL(url).host, 'proxy-connection': 'keep-alive' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function connect(proxy: string, authority: string): Promise<{ status: number; socket: net.Socket; reason?: string }> {
  const { hostname, port } = new URL(proxy);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, method: 'CONNECT', path: authority });
    req.on('connect', (res, socket) => {
      const reason = res.headers[REFUSED_HEADER];
      resolve({ status: res.statusCode ?? 0, socket, reason: typeof reason === 'string' ? reason : undefined });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('guarded forward proxy', () => {
  let site: http.Server;
  let sitePort: number;
  let canary: net.Server;
  let canaryPort: number;
  let canaryConnections = 0;
  let proxy: GuardedProxy;

  before(async () => {
    site = http.createServer((req, res) => {
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.end(`site saw ${req.headers.host} ${req.url} proxy-connection=${req.headers['proxy-connection'] ?? 'none'}`);
    });
    sitePort = await listen(site);
    canary = net.createServer((socket) => {
      canaryConnections++;
      socket.destroy();
    });
    canaryPort = await listen(canary);
    proxy = await startGuardedProxy({
      // The lab's shape: site names mapped onto a loopback port, everything else through (fake) DNS.
      connectTo: { 'mapped.example:80': `127.0.0.1:${sitePort}`, 'mapped.example:443': `127.0.0.1:${sitePort}` },
      resolveHost: async (host) => {
        if (host === 'rebinding.example') return ['93.184.216.34', '127.0.0.1'];
        if (host === 'metadata.example') return ['169.254.169.254'];
        throw Object.assign(new Error(`no such name ${host}`), { code: 'ENOTFOUND' });
      },
    });
  });

  after(async () => {
    await proxy.close();
    site.close();
    canary.close();
  });

  test('plain HTTP to a mapped name reaches the site, with hop-by-hop headers dropped both ways', async () => {
    const res = await proxyRequest(proxy.url, 'http://mapped.example/path?q=1');
    assert.equal(res.status, 200);
    assert.equal(res.body, 'site saw mapped.example /path?q=1 proxy-connection=none');
    assert.deepEqual(res.headers['set-cookie'], ['a=1', 'b=2']);
  });

  test('a CONNECT tunnel to a mapped name carries bytes to the site', async () => {
    const { status, socket } = await connect(proxy.url, 'mapped.example:443');
    assert.equal(status, 200);
    socket.write('GET /tunnelled HTTP/1.1\r\nHost: mapped.example\r\nConnection: close\r\n\r\n');
    let text = '';
    for await (const chunk of socket) text += String(chunk);
    assert.match(text, /^HTTP\/1\.1 200/);
    assert.match(text, /site saw mapped\.example \/tunnelled/);
  });

  test('loopback, metadata and mixed answers are refused with 403 and the guard reason', async () => {
    const cases: [string, string][] = [
      [`http://127.0.0.1:${canaryPort}/`, 'loopback'],
      [`http://2130706433:${canaryPort}/`, 'loopback'],
      [`http://[::ffff:127.0.0.1]:${canaryPort}/`, 'ipv4Mapped:loopback'],
      [`http://localhost:${canaryPort}/`, 'local_name'],
      ['http://169.254.169.254/latest/meta-data/', 'metadata'],
      ['http://metadata.example/', 'metadata'],
      // One bad address refuses the name: the attacker picks the order.
      ['http://rebinding.example/', 'loopback'],
    ];
    for (const [url, reason] of cases) {
      const res = await proxyRequest(proxy.url, url);
      assert.equal(res.status, 403, url);
      assert.equal(res.headers[REFUSED_HEADER], reason, url);
    }
    for (const authority of [`127.0.0.1:${canaryPort}`, `[::1]:${canaryPort}`, `localhost:${canaryPort}`]) {
      const { status, reason, socket } = await connect(proxy.url, authority);
      socket.destroy();
      assert.equal(status, 403, authority);
      assert.ok(reason, authority);
    }
    assert.equal(canaryConnections, 0);
  });

  test('the mapping is per name and port: the site port itself is not reachable by address', async () => {
    const res = await proxyRequest(proxy.url, `http://127.0.0.1:${sitePort}/`);
    assert.equal(res.status, 403);
    const other = await proxyRequest(proxy.url, 'http://mapped.example:8080/');
    assert.equal(other.status, 502, 'not mapped on 8080, and the name does not resolve');
  });

  test('refusals are attributed to the session whose listener saw them', async () => {
    const first = await proxy.openSession();
    const second = await proxy.openSession();
    try {
      await proxyRequest(first.url, `http://127.0.0.1:${canaryPort}/one`);
      const ok = await proxyRequest(second.url, 'http://mapped.example/');
      assert.equal(ok.status, 200);
      const tunnel = await connect(second.url, `127.0.0.1:${canaryPort}`);
      tunnel.socket.destroy();
      assert.deepEqual(
        first.refusals.map((r) => [r.target, r.reason]),
        [[`http://127.0.0.1:${canaryPort}/one`, 'loopback']],
      );
      assert.deepEqual(
        second.refusals.map((r) => [r.target, r.reason]),
        [[`127.0.0.1:${canaryPort}`, 'loopback']],
      );
    } finally {
      await first.close();
      await second.close();
    }
    assert.equal(canaryConnections, 0);
  });

  test('requests that are not proxy requests are rejected', async () => {
    const { hostname, port } = new URL(proxy.url);
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get({ hostname, port, path: '/' }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject);
    });
    assert.equal(status, 400);
  });
});
