import 'reflect-metadata';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createSources, parseHsts, type SourceSet, shodanFaviconHash } from '../../core/evidence/sources/index.ts';
import { type Lab, startLab } from '../../lab/index.ts';
import { writeSites } from '../lab/lab-fixtures.ts';

const ICON = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 37) % 256));
const BIG_PAGE = `<html><body>${'x'.repeat(50_000)}</body></html>`;

let lab: Lab;
let sources: SourceSet;
let cleanup: () => Promise<void>;

before(async () => {
  const sites = await writeSites({
    'start.test': {
      site: {
        redirects: { '/': { to: 'https://hop-meta.test/', status: 301 }, '/loop': { to: '/loop', status: 302 } },
        headers: { 'strict-transport-security': 'max-age=31536000; includeSubDomains; preload' },
      },
      files: { 'index.html': 'never served: the redirect wins' },
    },
    'hop-meta.test': { files: { 'index.html': '<meta http-equiv="Refresh" content="2;URL=\'/next/?a=1&amp;b=2\'">' } },
    'hop-js.test': {
      files: {
        'index.html': '<script>if (location.hash === "") { window.location = "https://final.test/"; }</script>',
      },
    },
    'final.test': {
      site: { headers: { 'strict-transport-security': 'max-age=600' } },
      files: {
        'index.html': '<html><head><link rel="shortcut icon" href="/static/icon.ico"></head><body>done</body></html>',
        'static/icon.ico': ICON,
      },
    },
    'chain.test': {
      site: {
        redirects: Object.fromEntries(
          Array.from({ length: 20 }, (_, i) => [`/${i}`, { to: `/${i + 1}`, status: 302 }]),
        ),
      },
    },
    'big.test': { files: { 'index.html': BIG_PAGE } },
  });
  cleanup = sites.cleanup;
  lab = await startLab({ sitesDir: sites.dir });
  sources = createSources(lab.sourcesConfig({ cacheTtlMs: 0, http: { maxHops: 8, maxBodyBytes: 10_000 } }));
});
after(async () => {
  await sources.close();
  await lab.close();
  await cleanup();
});

test('http, meta and js hops across hosts are recorded in order with their kinds', async () => {
  // The meta target does not exist: the chain ends on its 404, which is still a recorded hop.
  const result = await sources.http.fetchPage('https://start.test/');
  assert.deepEqual(
    result.hops.map((h) => [h.kind, h.url, h.status]),
    [
      ['initial', 'https://start.test/', 301],
      ['http', 'https://hop-meta.test/', 200],
      ['meta', 'https://hop-meta.test/next/?a=1&b=2', 404],
    ],
  );
  assert.equal(result.hops[0]!.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains; preload');
  assert.deepEqual(result.hops[1]!.redirect, { kind: 'meta', to: 'https://hop-meta.test/next/?a=1&b=2' });
});

test('a JavaScript location assignment is followed and the final page gives HSTS and the favicon hash', async () => {
  const result = await sources.http.fetchPage('https://hop-js.test/');
  assert.deepEqual(
    result.hops.map((h) => h.kind),
    ['initial', 'js'],
  );
  assert.equal(result.hops[0]!.redirect?.expression, 'window.location = "https://final.test/"');
  assert.equal(result.final_url, 'https://final.test/');
  assert.deepEqual(result.hsts, { max_age: 600, include_subdomains: false, preload: false });
  assert.equal(result.favicon?.url, 'https://final.test/static/icon.ico');
  assert.equal(result.favicon?.hash, shodanFaviconHash(ICON));
  assert.equal(result.favicon?.size, ICON.length);
});

test('max hops and loops stop the chain', async () => {
  const chain = await sources.http.fetchPage('http://chain.test/0', { favicon: false });
  assert.equal(chain.stopped, 'max_hops');
  assert.equal(chain.hops.length, 8);
  const loop = await sources.http.fetchPage('https://start.test/loop', { favicon: false });
  assert.equal(loop.stopped, 'loop');
  assert.equal(loop.hops.length, 1);
});

test('bodies are capped', async () => {
  const result = await sources.http.fetchPage('https://big.test/', { favicon: false });
  assert.equal(result.final?.body.length, 10_000);
  assert.equal(result.final?.body_truncated, true);
});

test('HSTS parsing follows RFC 6797 directive names', () => {
  assert.deepEqual(parseHsts('max-age="300"; includeSubDomains'), {
    max_age: 300,
    include_subdomains: true,
    preload: false,
  });
  assert.equal(parseHsts('includeSubDomains'), undefined);
  assert.equal(parseHsts(undefined), undefined);
});
