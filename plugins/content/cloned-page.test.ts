// Cloned sign-in pages and PHP credential drops: valid / invalid tables in the ESLint RuleTester manner. Each case
// is a fetched page (no browser) read through the content plugin's page view and kit signals.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTarget } from '../../core/engine/url/target.ts';
import type { ScanEvidence } from '../../core/services/scan/evidence.ts';
import { clonedPage } from './cloned-page.ts';
import { credentialFunnel } from './credential-fields.ts';
import { KIT_FLAGS, kitSignals } from './kit-signals.ts';
import { pageViewOf } from './page-view.ts';

const evidenceOf = (url: string, html: string) =>
  ({
    target: parseTarget(url),
    page: { hops: [], final: { url, status: 200, headers: {}, body: html } },
    browser: { degraded: true, hops: [], behaviors: {} },
  }) as unknown as ScanEvidence;

const form = (action: string, password = true) =>
  `<form method="post" action="${action}"><input type="email" name="email">` +
  `<input type="${password ? 'password' : 'text'}" name="${password ? 'pass' : 'q'}"><button>Sign in</button></form>`;

function flagsOf(url: string, html: string, brandOwned = false): string[] {
  const view = pageViewOf(evidenceOf(url, html))!;
  return kitSignals(view, credentialFunnel(view.doc), brandOwned).findings.map((f) => f.flag);
}

interface Case {
  name: string;
  url: string;
  html: string;
  brandOwned?: boolean;
  markers?: string[];
}

const clonedInvalid: Case[] = [
  {
    name: '"saved from url" mark naming another site',
    url: 'https://cedar29-bakery.co/',
    html: `<!-- saved from url=(0029)https://www.larkspur.io/login --><html><head><title>Log in</title></head><body>${form('login.php')}</body></html>`,
    markers: ['saved_from'],
  },
  {
    name: 'a browser-saved asset folder ("Sign in_files/")',
    url: 'https://maple-4676.web.app/',
    html: `<html><head><link rel="stylesheet" href="./Sign in to Larkspur_files/app.css"></head><body><img src="./Sign in to Larkspur_files/logo.svg">${form('/go')}</body></html>`,
    markers: ['saved_assets'],
  },
  {
    name: 'HTTrack site-copier banner',
    url: 'https://juniper86-auto-parts.net/',
    html: `<!-- Mirrored from members.quorvian.co/login by HTTrack Website Copier/3.x --><html><body>${form('login.php')}</body></html>`,
    markers: ['site_copier'],
  },
  {
    name: 'canonical URL and og:url naming another site',
    url: 'https://orchid58-realty-group.com/',
    html: `<html><head><link rel="canonical" href="https://id.larkspur.io/auth"><meta property="og:url" content="https://id.larkspur.io/auth"></head><body>${form('/auth')}</body></html>`,
    markers: ['canonical_elsewhere', 'og_url_elsewhere'],
  },
];

const clonedValid: Case[] = [
  {
    name: 'canonical URL on the site itself',
    url: 'https://www.larkspur.io/login',
    html: `<html><head><link rel="canonical" href="https://larkspur.io/login"></head><body>${form('/session')}</body></html>`,
  },
  {
    name: 'a syndicated article (canonical elsewhere) that asks for no secret',
    url: 'https://hosted.news-wire.example/story',
    html: `<html><head><link rel="canonical" href="https://www.daily-paper.example/story"></head><body><p>Story</p>${form('/search', false)}</body></html>`,
  },
  {
    name: 'a copy mark on the brand’s own site',
    url: 'https://www.larkspur.io/',
    html: `<!-- saved from url=(0029)https://www.larkspur.io/login --><html><body>${form('/session')}</body></html>`,
    brandOwned: true,
  },
  {
    name: 'copy marks in a long page (an article quoting a kit)',
    url: 'https://tech-news-daily.com/kits',
    html: `<html><head><link rel="canonical" href="https://other-paper.example/kits"></head><body><p>${'Analysis of a phishing kit. '.repeat(300)}</p>${form('/login')}</body></html>`,
  },
];

const phpInvalid: Case[] = [
  { name: 'password posted to login.php', url: 'https://cedar24-bakery.co/', html: form('login.php') },
  {
    name: 'password posted to /next.php5 (absolute path)',
    url: 'https://lumen-6817.pages.dev/',
    html: form('/a/next.php5'),
  },
];

const phpValid: Case[] = [
  { name: 'password posted to a non-PHP endpoint', url: 'https://cedar24-bakery.co/', html: form('/session') },
  {
    name: 'search form posted to search.php (no secret)',
    url: 'https://cedar24-bakery.co/',
    html: form('search.php', false),
  },
  {
    name: 'brand-owned site posting to login.php',
    url: 'https://www.larkspur.io/',
    html: form('login.php'),
    brandOwned: true,
  },
  {
    name: 'PHP script on another site (that is the off-site post flag, not this one)',
    url: 'https://cedar24-bakery.co/',
    html: form('https://drop.quorvian.co/p.php'),
  },
];

describe(KIT_FLAGS.clonedPage, () => {
  describe('invalid', () => {
    for (const c of clonedInvalid) {
      it(c.name, () => {
        assert.ok(flagsOf(c.url, c.html, c.brandOwned).includes(KIT_FLAGS.clonedPage));
        const view = pageViewOf(evidenceOf(c.url, c.html))!;
        assert.deepEqual(clonedPage(view).markers, c.markers);
      });
    }
  });
  describe('valid', () => {
    for (const c of clonedValid) {
      it(c.name, () => assert.ok(!flagsOf(c.url, c.html, c.brandOwned).includes(KIT_FLAGS.clonedPage)));
    }
  });
  it('stays bounded on hostile markup', { timeout: 10_000 }, () => {
    const hostile = `<link ${'rel=canonical '.repeat(50_000)}><!-- saved from url=(${'9'.repeat(100_000)}${'_files/'.repeat(30_000)}`;
    const view = pageViewOf(evidenceOf('https://x.example/', hostile + form('/a')))!;
    assert.ok(Array.isArray(clonedPage(view).markers));
  });
});

describe(KIT_FLAGS.phpDrop, () => {
  describe('invalid', () => {
    for (const c of phpInvalid) {
      it(c.name, () => assert.ok(flagsOf(c.url, c.html, c.brandOwned).includes(KIT_FLAGS.phpDrop)));
    }
  });
  describe('valid', () => {
    for (const c of phpValid) {
      it(c.name, () => assert.ok(!flagsOf(c.url, c.html, c.brandOwned).includes(KIT_FLAGS.phpDrop)));
    }
  });
});
