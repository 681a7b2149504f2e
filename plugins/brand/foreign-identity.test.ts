// Foreign page identity (no brand list): valid / invalid tables in the ESLint RuleTester manner. Every case is a
// fetched page (no browser) on a host, judged by foreignPageIdentity and by the plugin (which leaves pages a
// catalogued brand already explains to content:brand_impersonation).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTarget } from '../../core/engine/url/target.ts';
import type { ScanEvidence } from '../../core/services/scan/evidence.ts';
import { shippedCatalogs } from '../../test/support/catalogs.ts';
import { foreignPageIdentity } from './foreign-identity.ts';
import brand, { FOREIGN_IDENTITY } from './index.ts';

const { brands } = shippedCatalogs();

const evidenceOf = (url: string, html: string) =>
  ({
    target: parseTarget(url),
    page: { hops: [], final: { url, status: 200, headers: {}, body: html } },
    browser: { degraded: true, hops: [], behaviors: {} },
    tls: { ok: false, error: 'not collected' },
    ct: { ok: false, error: 'not collected' },
  }) as unknown as ScanEvidence;

const PASSWORD_FORM =
  '<form method="post" action="/session"><input type="email" name="email"><input type="password" name="pw"><button>Sign in</button></form>';
const page = (head: string, body: string, form = PASSWORD_FORM) =>
  `<html><head>${head}</head><body>${body}${form}</body></html>`;

interface Case {
  name: string;
  url: string;
  html: string;
  /** The name the page is found to claim (invalid cases). */
  claims?: string;
}

const invalid: Case[] = [
  {
    name: 'sign-in title and "Sign in to X" heading name a service the host does not',
    url: 'https://cedar29-bakery.co/',
    html: page('<title>Sign in to Larkspur</title>', '<h1>Sign in to Larkspur</h1>'),
    claims: 'larkspur',
  },
  {
    name: 'a title segment beside a login segment ("Crypto Coin Sniper - Dashboard | Login")',
    url: 'https://juniper86-auto-parts.net/',
    html: page('<title>Crypto Coin Sniper - Dashboard | Login</title>', '<p>Members area</p>'),
    claims: 'crypto coin sniper',
  },
  {
    name: 'og:site_name of another service on a free-hosting tenant',
    url: 'https://harbor-3978.netlify.app/',
    html: page('<title>Welcome back</title><meta property="og:site_name" content="Quorvian">', ''),
    claims: 'quorvian',
  },
  {
    name: 'a logo (alt text and file name) agreeing with a copyright holder',
    url: 'https://maple42-dental-care.com/',
    html: page(
      '<title>Account</title>',
      '<img src="/img/velmora-logo.svg" alt="Velmora logo"><p>© 2024 Velmora Inc. All rights reserved.</p>',
    ),
    claims: 'velmora',
  },
  {
    name: 'a two-letter service name in a sign-in title and heading ("Log in | QZ")',
    url: 'https://atlas42-auto-parts.net/',
    html: page('<title>Log in | QZ</title>', '<h2>Login to QZ</h2>'),
    claims: 'qz',
  },
  {
    name: 'a title that is a foreign name alone, with a password field',
    url: 'https://summit36-yoga.studio/',
    html: page('<title>Tessaro Account</title>', ''),
    claims: 'tessaro',
  },
  {
    name: 'a copy’s traces agree: links to the original and its saved address, under a bare-name heading',
    url: 'https://cedar-5640.pages.dev/',
    html: page(
      '<!-- saved from url=(0031)https://www.velmora-id.com/login --><title>Sign In</title>',
      '<h1>Velmora ID</h1><a href="https://www.velmora-id.com/reset">Forgot password?</a><a href="https://www.velmora-id.com/join">Join now</a>',
    ),
    claims: 'velmora id',
  },
  {
    name: 'credential fields named after the service, and a logo loaded from its host',
    url: 'https://juniper-6654.netlify.app/',
    html: page(
      '<title>Login</title>',
      '<img src="https://static.quorvian.tv/img/quorvian_logo.png" alt="">',
      '<form method="post" action="/s"><input name="quorvian_user"><input type="password" name="quorvian_pass"></form>',
    ),
    claims: 'quorvian',
  },
];

const valid: Case[] = [
  {
    name: 'a bare-name heading alone (one kind of place)',
    url: 'https://cedar29-bakery.co/',
    html: page('<title>Members</title>', '<h1>Velmora</h1>'),
  },
  {
    name: 'a single link to another site and fields named after nothing distinctive',
    url: 'https://cedar29-bakery.co/',
    html: page(
      '<title>Sign in</title>',
      '<a href="https://help.velmora.com/">Help</a>',
      '<form method="post" action="/s"><input name="login_user"><input type="password" name="login_pass"></form>',
    ),
  },
  {
    name: 'traces of another site when the page names itself (a shop’s own login linking to its payment provider)',
    url: 'https://www.cedar29-bakery.co/account',
    html: page(
      '<title>Cedar29 Bakery | Sign in</title>',
      '<a href="https://pay.velmora.com/a">Pay</a><a href="https://pay.velmora.com/b">Invoices</a>',
    ),
  },
  {
    name: 'the service’s own sign-in page (name in the host)',
    url: 'https://login.larkspur.io/',
    html: page('<title>Sign in to Larkspur</title>', '<h1>Sign in to Larkspur</h1>'),
  },
  {
    name: 'an acronym of the site’s name ("WSJ" on wsj.com, "Wall Street Journal" too)',
    url: 'https://www.wsj.com/login',
    html: page('<title>Log in | Wall Street Journal</title>', '<h1>Sign in to WSJ</h1>'),
  },
  {
    name: 'a tenant naming its own project',
    url: 'https://velmora-notes.vercel.app/',
    html: page('<title>Velmora Notes - Login</title>', '<img src="/logo.png" alt="Velmora logo">'),
  },
  {
    name: 'a self-hosted product’s login on its owner’s host (Roundcube, phpMyAdmin)',
    url: 'https://mail.cedar24-bakery.co/',
    html: page(
      '<title>Roundcube Webmail :: Welcome to Roundcube Webmail</title>',
      '<h1>Welcome to Roundcube Webmail</h1>',
    ),
  },
  {
    name: 'same identity but no secret asked (newsletter form)',
    url: 'https://cedar29-bakery.co/',
    html: page(
      '<title>Sign in to Larkspur</title>',
      '<h1>Sign in to Larkspur</h1>',
      '<form action="/subscribe"><input type="email" name="email"><button>Subscribe</button></form>',
    ),
  },
  {
    name: 'an article title segment beside no sign-in wording, one cue only',
    url: 'https://tech-news-daily.com/a/1',
    html: page('<title>Quorvian raises $20M | Startups</title>', '<p>Read more</p>'),
  },
  {
    name: 'a long article page with a login modal naming other services',
    url: 'https://tech-news-daily.com/a/2',
    html: page(
      '<title>Login | Quorvian</title>',
      `<h1>Sign in to Quorvian</h1><p>${'Long article text. '.repeat(500)}</p>`,
    ),
  },
];

describe('foreign page identity', () => {
  describe('invalid', () => {
    for (const c of invalid) {
      it(c.name, () => {
        const hit = foreignPageIdentity(evidenceOf(c.url, c.html), brands);
        assert.equal(hit?.name, c.claims);
      });
    }
  });
  describe('valid', () => {
    for (const c of valid) {
      it(c.name, () => {
        assert.equal(foreignPageIdentity(evidenceOf(c.url, c.html), brands), undefined);
      });
    }
  });

  it('the plugin emits the flag only when no catalogued brand explains the page', async () => {
    const detector = brand.create({ deps: { brands }, config: brand.meta.defaultConfig! });
    const run = async (url: string, html: string) =>
      (
        await detector.detect({
          surface: 'scan',
          evidence: evidenceOf(url, html),
          signal: new AbortController().signal,
        } as never)
      ).findings.map((f) => f.flag);
    const foreign = await run('https://cedar29-bakery.co/', invalid[0]!.html);
    assert.ok(foreign.includes(FOREIGN_IDENTITY));
    const paypal = await run(
      'https://cedar29-bakery.co/',
      page('<title>PayPal: Log in</title>', '<h1>Log in to PayPal</h1>'),
    );
    assert.ok(paypal.includes('content:brand_impersonation'));
    assert.ok(!paypal.includes(FOREIGN_IDENTITY));
  });
});
