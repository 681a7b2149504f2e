// The scan's one-hop follow (core/services/scan/call-to-action.ts, core/services/scan/one-hop-follow.ts) against real HTTP servers on
// 127.0.0.1: what it follows, and what an attacker's page cannot make it do (loops, chains, binaries, internal
// addresses, other ports, credentials in URLs).
import 'reflect-metadata';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { readHtml } from '../../core/engine/text/html-document.ts';
import { degradedCapture } from '../../core/evidence/browser/browser-capture.ts';
import { createSources, type SourceSet } from '../../core/evidence/sources/index.ts';
import { planFollow } from '../../core/services/scan/call-to-action.ts';
import { FOLLOW_MAX_REQUESTS, type FollowEvidence, followOneHop } from '../../core/services/scan/one-hop-follow.ts';
import { type Lab, startLab } from '../../lab/index.ts';
import { writeSites } from '../lab/lab-fixtures.ts';

const SIGN_IN_PAGE =
  '<title>Sign in</title><form method="post" action="/s"><input name="u"><input type="password" name="p"></form>';

/** A server on 127.0.0.1 that only counts: the follow must never reach it. */
let canary: http.Server;
let canaryConnections = 0;
let C = 0;
let lab: Lab;
let sources: SourceSet;
let cleanup: () => Promise<void>;

before(async () => {
  canary = http.createServer((_req, res) => res.end('<a href="/x">Sign in</a>'));
  canary.on('connection', () => canaryConnections++);
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  C = (canary.address() as AddressInfo).port;
  const chain = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`/c${i}`, { to: `/c${i + 1}`, status: 302 }]));
  const sites = await writeSites({
    'poll.test': {
      files: {
        'index.html':
          '<h1>Vote</h1><form action="step2.html"><input name="n"><input type="checkbox" name="c"><input type="submit" value="Vote"></form>',
        'step2.html': SIGN_IN_PAGE,
      },
    },
    'profile.test': {
      files: {
        'index.html':
          '<a href="/about">About</a><a href="/signin.html">Log In</a><a href="https://other.test/">Blog</a><a href="/signin.html">Verify now</a><a href="/help">Continue</a>',
        'signin.html': SIGN_IN_PAGE,
      },
    },
    'landing.test': {
      files: { 'index.html': '<p>Your file is ready.</p><a href="https://harvest.test/login">Open</a>' },
    },
    'harvest.test': { files: { 'login/index.html': SIGN_IN_PAGE } },
    'asks.test': { files: { 'index.html': `${SIGN_IN_PAGE}<a href="/other">Sign in</a>` } },
    'loop.test': {
      site: { redirects: { '/signin': { to: 'https://loop.test/', status: 302 } } },
      files: { 'index.html': '<a href="/signin">Sign in</a>' },
    },
    'chain.test': { site: { redirects: chain }, files: { 'index.html': '<a href="/c0">Sign in</a>' } },
    'binary.test': {
      files: {
        'index.html': '<a href="/setup.zip">Log in</a><a href="/blob">Continue</a>',
        blob: Buffer.alloc(2_000_000, 7),
      },
    },
    'internal.test': { files: { 'index.html': '<a href="http://inside-v4.test/">Sign in</a>' } },
    'metadata.test': { files: { 'index.html': '<a href="http://169.254.169.254/latest/meta-data/">Sign in</a>' } },
    'port.test': { files: { 'index.html': `<a href="http://127.0.0.1:${C}/">Sign in</a>` } },
    'userinfo.test': { files: { 'index.html': '<a href="https://poll.test@harvest.test/login">Sign in</a>' } },
    'search.test': {
      files: { 'index.html': '<form action="/search/"><input name="q"><button>Search</button></form>' },
    },
    'inside-v4.test': { site: { ip: '127.0.0.1' } },
    'other.test': {},
  });
  cleanup = sites.cleanup;
  lab = await startLab({ sitesDir: sites.dir });
  // inside-v4.test resolves through the lab DNS to 127.0.0.1, like an attacker's name would: no connect-to for it.
  const connectTo = Object.fromEntries(Object.entries(lab.connectTo).filter(([key]) => !key.includes('inside-')));
  sources = createSources(lab.sourcesConfig({ connectTo, cacheTtlMs: 0, timeoutsMs: { http: 3_000, tls: 2_000 } }));
});

after(async () => {
  await sources.close();
  await lab.close();
  await cleanup();
  await new Promise<void>((resolve) => canary.close(() => resolve()));
});

async function followFrom(url: string): Promise<FollowEvidence> {
  const page = await sources.http.fetchPage(url, { favicon: false });
  return followOneHop(sources.http, { page, browser: degradedCapture('no browser in this test') }, {});
}

describe('one-hop follow: what it follows', () => {
  test('a first-stage page whose GET form leads to the sign-in page', async () => {
    const f = await followFrom('https://poll.test/');
    assert.equal(f.status, 'followed');
    assert.deepEqual(f.plan, { url: 'https://poll.test/step2.html', via: 'form_get', label: 'Vote', same_host: true });
    assert.match(f.page!.final!.body, /type="password"/);
    assert.equal(f.from_url, 'https://poll.test/');
  });

  test('the most linked sign-in link beats verify and continue links', async () => {
    const f = await followFrom('https://profile.test/');
    assert.equal(f.status, 'followed');
    assert.equal(f.plan?.url, 'https://profile.test/signin.html');
    assert.equal(f.plan?.via, 'action_link');
    assert.equal(f.plan?.label, 'Log In');
  });

  test("a page's only link, to another site", async () => {
    const f = await followFrom('https://landing.test/');
    assert.equal(f.status, 'followed');
    assert.equal(f.plan?.via, 'sole_link');
    assert.equal(f.plan?.same_host, false);
    assert.equal(f.page?.final_url, 'https://harvest.test/login');
  });
});

describe('one-hop follow: what it refuses', () => {
  test('a page that asks for a secret itself is the end of its funnel: nothing is fetched', async () => {
    const f = await followFrom('https://asks.test/');
    assert.deepEqual(f, { status: 'page_asks_for_secret', from_url: 'https://asks.test/' });
  });

  test('a call to action leading back to the scanned page is discarded (no loops)', async () => {
    const f = await followFrom('https://loop.test/');
    assert.equal(f.status, 'failed');
    assert.match(f.reason!, /leads back/);
  });

  test(`a redirect chain behind the call to action stops after ${FOLLOW_MAX_REQUESTS} requests`, async () => {
    const f = await followFrom('https://chain.test/');
    assert.equal(f.status, 'failed');
    assert.equal(f.page?.stopped, 'max_hops');
    assert.equal(f.page?.hops.length, FOLLOW_MAX_REQUESTS);
  });

  test('file links are never chosen, and a body that is not HTML is dropped unread', async () => {
    const f = await followFrom('https://binary.test/');
    assert.equal(f.plan?.url, 'https://binary.test/blob', 'the .zip link is skipped for the next call to action');
    assert.equal(f.status, 'failed');
    assert.match(f.reason!, /not an HTML page \(application\/octet-stream\)/);
    assert.equal(f.page?.final?.body, '');
    assert.equal(f.page?.final?.body_truncated, false);
  });

  test('internal addresses are refused by the SSRF guard, other ports and credentials in URLs are not chosen', async () => {
    const before = canaryConnections;
    const internal = await followFrom('https://internal.test/');
    assert.equal(internal.status, 'failed');
    assert.equal(internal.page?.error?.reason, 'blocked');
    const metadata = await followFrom('https://metadata.test/');
    assert.equal(metadata.status, 'failed');
    assert.equal(metadata.page?.error?.reason, 'blocked');
    assert.equal((await followFrom('https://port.test/')).status, 'no_call_to_action');
    assert.equal((await followFrom('https://userinfo.test/')).status, 'no_call_to_action');
    assert.equal(canaryConnections, before, 'nothing reached 127.0.0.1');
  });

  test('a site search form is not a call to action', async () => {
    assert.equal((await followFrom('https://search.test/')).status, 'no_call_to_action');
  });
});

describe('call-to-action planning', () => {
  const plan = (html: string, visited: string[] = []) =>
    planFollow(readHtml(html), html, 'https://page.test/start', new Set(visited));

  test('a delayed meta refresh is followed unless the fetch already took it; partial script targets are not', () => {
    const meta = '<meta http-equiv="refresh" content="30; url=/next">';
    assert.deepEqual(plan(meta), { url: 'https://page.test/next', via: 'meta_refresh', label: 'refresh after 30 s' });
    assert.equal(plan(meta, ['https://page.test/next']), undefined);
    assert.equal(plan('<script>location.href = "/go?u=" + user;</script>'), undefined);
    assert.equal(plan('<script>location.href = "/go";</script>')?.via, 'script_redirect');
  });

  test('a navigating button counts as a link; sign-up wording does not', () => {
    assert.equal(plan('<button onclick="location.href=\'/login\'">Sign in</button>')?.url, 'https://page.test/login');
    assert.equal(plan('<a href="/a">Sign up</a><a href="/b">Register</a>'), undefined);
  });

  test('secret fields by type, autocomplete or name stop the follow; an email box does not', () => {
    for (const field of [
      '<input type="password">',
      '<input autocomplete="cc-number">',
      '<input name="userPassword">',
      '<input name="otp_code">',
    ]) {
      assert.equal(plan(`${field}<a href="/x">Sign in</a>`), undefined, field);
    }
    assert.equal(plan('<input type="email" name="email"><a href="/x">Sign in</a>')?.url, 'https://page.test/x');
  });

  test('hostile markup costs time linear in its length', () => {
    const hostile = [
      '<a href="/x">'.repeat(40_000),
      '<form action="/y">'.repeat(40_000),
      `<meta http-equiv="refresh" content="${'0;'.repeat(200_000)}`,
      `<script>${'location.href="'.repeat(30_000)}`,
      '<'.repeat(500_000),
      // every `<` opens a tag whose quote-aware end search fails after MAX_TAG_CHARS (bounded by a per-page budget)
      '">x"<a='.repeat(150_000),
    ];
    for (const html of hostile) {
      const started = performance.now();
      plan(html);
      assert.ok(performance.now() - started < 1_500, `${html.slice(0, 30)}… took too long`);
    }
  });
});
