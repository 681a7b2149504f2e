import 'reflect-metadata';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { openGuardedSocket, resolveGuardedTarget, SsrfError } from '../../core/evidence/net/index.ts';
import { createSources, type SourceSet } from '../../core/evidence/sources/index.ts';
import { type Lab, startLab } from '../../lab/index.ts';
import { writeSites } from '../lab/lab-fixtures.ts';

/** A server on 127.0.0.1 that only counts: every test below must leave it at zero. */
let canary: http.Server;
let canaryConnections = 0;
let C = 0;
let lab: Lab;
let sources: SourceSet;
let cleanup: () => Promise<void>;

const REDIRECTOR = 'redirector.test';

before(async () => {
  canary = http.createServer((_req, res) => res.end('canary'));
  canary.on('connection', () => canaryConnections++);
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  C = (canary.address() as AddressInfo).port;

  const sites = await writeSites({
    [REDIRECTOR]: {
      site: {
        redirects: {
          '/to-loopback': { to: `http://127.0.0.1:${C}/`, status: 302 },
          '/to-decimal': { to: `http://2130706433:${C}/`, status: 301 },
          '/to-localhost': { to: `http://localhost:${C}/`, status: 307 },
          '/to-inside-name': { to: `http://inside-v4.test:${C}/`, status: 302 },
          '/to-metadata': { to: 'http://169.254.169.254/latest/meta-data/', status: 302 },
          '/to-userinfo': { to: `http://redirector.test@127.0.0.1:${C}/`, status: 302 },
        },
      },
      files: {
        'index.html': '<h1>hi</h1>',
        'meta/index.html': `<meta http-equiv="refresh" content="0; url=http://[::ffff:7f00:1]:${C}/">`,
        'js/index.html': `<script>window.location.href = "http://0x7f.1:${C}/";</script>`,
      },
    },
    'inside-v4.test': { site: { ip: '127.0.0.1' } },
    'inside-v6.test': { site: { ip: '::1' } },
    'inside-mapped.test': { site: { ip: '::ffff:127.0.0.1' } },
    'inside-metadata.test': { site: { ip: '169.254.169.254' } },
    'inside-private.test': { site: { ip: '10.0.0.7' } },
  });
  cleanup = sites.cleanup;
  lab = await startLab({ sitesDir: sites.dir });
  // Only the redirector goes through connect-to; the inside-* names must resolve through the lab DNS like any name.
  const connectTo = Object.fromEntries(
    Object.entries(lab.connectTo).filter(([key]) => key.startsWith(`${REDIRECTOR}:`)),
  );
  sources = createSources(lab.sourcesConfig({ connectTo, cacheTtlMs: 0, timeoutsMs: { http: 2_000, tls: 2_000 } }));
});

after(async () => {
  await sources.close();
  await lab.close();
  await cleanup();
  canary.close();
});

const spelledUrls = () => [
  `http://127.0.0.1:${C}/`,
  `http://2130706433:${C}/`,
  `http://0177.0.0.1:${C}/`,
  `http://0x7f.1:${C}/`,
  `http://127.1:${C}/`,
  `http://0x7f000001:${C}/`,
  `http://127.000.000.001:${C}/`,
  `http://127.0.0.1.:${C}/`,
  `http://１２７.０.０.１:${C}/`,
  `http://127。0。0。1:${C}/`,
  `http://0.0.0.0:${C}/`,
  `http://[::1]:${C}/`,
  `http://[::]:${C}/`,
  `http://[::ffff:127.0.0.1]:${C}/`,
  `http://[::ffff:7f00:1]:${C}/`,
  `http://[0:0:0:0:0:ffff:127.0.0.1]:${C}/`,
  `http://[64:ff9b::127.0.0.1]:${C}/`,
  `http://[::127.0.0.1]:${C}/`,
  `http://[2002:7f00:1::]:${C}/`,
  `http://localhost:${C}/`,
  `http://LOCALHOST.:${C}/`,
  `http://canary.localhost:${C}/`,
  `http://user:pass@127.0.0.1:${C}/`,
  `http://example.com@127.0.0.1:${C}/`,
  `https://127.0.0.1:${C}/`,
  'http://169.254.169.254/latest/meta-data/',
  'http://0xa9fea9fe/latest/meta-data/',
  'http://2852039166/latest/meta-data/',
  'http://0251.0376.0251.0376/',
  'http://[::ffff:169.254.169.254]/',
  'http://[fd00:ec2::254]/',
  'http://100.100.100.200/',
  'http://10.0.0.1/',
  'http://172.16.0.1/',
  'http://192.168.1.1/',
  'http://100.64.0.1/',
  'http://[fe80::1]/',
  'http://[fc00::1]/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
];

const insideNames = () => [
  `http://inside-v4.test:${C}/`,
  `http://inside-v6.test:${C}/`,
  `http://inside-mapped.test:${C}/`,
  'http://inside-metadata.test/latest/meta-data/',
  'http://inside-private.test/',
  `http://INSIDE-V4.test.:${C}/`,
];

const redirectPaths = [
  '/to-loopback',
  '/to-decimal',
  '/to-localhost',
  '/to-inside-name',
  '/to-metadata',
  '/to-userinfo',
  '/meta/',
  '/js/',
];

describe('SSRF guard: nothing reaches the canary', () => {
  test('at least 25 distinct bypass attempts are covered', () => {
    assert.ok(spelledUrls().length + insideNames().length + redirectPaths.length >= 25);
  });

  test('spellings of loopback, metadata and private addresses are refused', async () => {
    for (const url of spelledUrls()) {
      const result = await sources.http.fetchPage(url, { favicon: false });
      assert.equal(result.error?.reason, 'blocked', `${url}: ${JSON.stringify(result.error)}`);
      assert.equal(result.hops.length, 0, url);
    }
    assert.equal(canaryConnections, 0);
  });

  test('names whose DNS answers point inside are refused after resolution', async () => {
    for (const url of insideNames()) {
      const result = await sources.http.fetchPage(url, { favicon: false });
      assert.equal(result.error?.reason, 'blocked', `${url}: ${JSON.stringify(result.error)}`);
      assert.match(result.error?.detail ?? '', /refused to connect to inside-/);
    }
    assert.equal(canaryConnections, 0);
  });

  test('redirects (HTTP, meta refresh, JavaScript) to inside are refused at the hop', async () => {
    for (const path of redirectPaths) {
      const result = await sources.http.fetchPage(`http://${REDIRECTOR}${path}`, { favicon: false });
      assert.equal(result.hops.length, 1, path);
      assert.ok(result.hops[0]!.redirect, `${path} should redirect`);
      assert.equal(result.error?.reason, 'blocked', `${path}: ${JSON.stringify(result.error)}`);
    }
    assert.equal(canaryConnections, 0);
  });

  test('the TLS inspector and the API clients obey the same guard', async () => {
    const tls = await Promise.all([
      sources.tls.inspect('127.0.0.1', { port: C }),
      sources.tls.inspect('inside-v4.test', { port: C }),
      sources.tls.inspect('[::ffff:7f00:1]', { port: C }),
    ]);
    assert.deepEqual(
      tls.map((r) => (r.ok ? 'ok' : r.reason)),
      ['blocked', 'blocked', 'blocked'],
    );
    // Base URLs on loopback that are not in allowLoopback are refused too.
    const base = `http://127.0.0.1:${C}/`;
    const api = createSources({
      baseUrls: { rdap: base, ct: base, history: base, hostIntel: base },
      hostIntelKey: 'k',
      cacheTtlMs: 0,
    });
    try {
      const results = await Promise.all([
        api.rdap.lookupDomain('example.com'),
        api.ct.search('example.com'),
        api.history.captures('example.com'),
        api.hostIntel.lookup('8.8.8.8'),
      ]);
      assert.deepEqual(
        results.map((r) => (r.ok ? 'ok' : r.reason)),
        ['blocked', 'blocked', 'blocked', 'blocked'],
      );
    } finally {
      await api.close();
    }
    assert.equal(canaryConnections, 0);
  });

  test("lab mode reaches the lab's sites but not the lab's own loopback ports directly", async () => {
    const viaName = await sources.http.fetchPage(`http://${REDIRECTOR}/`, { favicon: false });
    assert.equal(viaName.final?.status, 200);
    const direct = await sources.http.fetchPage(`http://${lab.endpoints.http}/`, { favicon: false });
    assert.equal(direct.error?.reason, 'blocked');
  });
});

describe('resolve once, connect to the checked address', () => {
  test('a name is resolved once per connection and the socket goes to the checked address', async () => {
    // Its own server, not the canary: this connection is meant to succeed.
    const target = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const port = (target.address() as AddressInfo).port;
    let calls = 0;
    try {
      const opened = await openGuardedSocket(
        { hostname: 'rebind.example', port, tls: false },
        {
          // First answer is the one allowed endpoint; any later answer would differ.
          resolveHost: async () => (calls++ === 0 ? ['127.0.0.1'] : ['127.0.0.2']),
          allowEndpoints: [`127.0.0.1:${port}`],
        },
      );
      const remoteAddress = opened.socket.remoteAddress;
      opened.socket.destroy();
      assert.equal(calls, 1);
      assert.equal(opened.target.address, '127.0.0.1');
      assert.equal(remoteAddress, '127.0.0.1');
    } finally {
      target.close();
    }
  });

  test('one bad address among good ones refuses the whole name', async () => {
    await assert.rejects(
      resolveGuardedTarget('mixed.example', 80, { resolveHost: async () => ['8.8.8.8', '127.0.0.1'] }),
      (err: unknown) => err instanceof SsrfError && err.reason === 'loopback',
    );
    await assert.rejects(
      resolveGuardedTarget('mixed6.example', 80, { resolveHost: async () => ['2606:4700::1111', '::ffff:a9fe:a9fe'] }),
      (err: unknown) => err instanceof SsrfError && err.reason === 'ipv4Mapped:metadata',
    );
  });
});
