import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { brandOwning } from '../../core/engine/url/brand-ownership.ts';
import { parseTarget } from '../../core/engine/url/target.ts';
import type { ScanEvidence } from '../../core/services/scan/evidence.ts';
import { shippedCatalogs } from '../../test/support/catalogs.ts';
import { openScanRig, type ScanRig } from '../../test/support/scan-fixture-rig.ts';
import { brandTokensIn, lookalikeBrandTokensIn } from '../_shared/brand-matching/brand-tokens.ts';
import { editReadsAsToken, singleEditBetween, skeleton } from '../_shared/brand-matching/confusables.ts';
import { findImpersonation } from '../_shared/brand-matching/impersonation.ts';
import { lureWordsIn, wordRuns } from '../_shared/brand-matching/lexicon.ts';
import { pageCues } from '../_shared/page-cues.ts';
import brand, { CT_SIBLING_PREFIX } from './index.ts';
import { pageImpersonation } from './page-impersonation.ts';

const { brands } = shippedCatalogs();
const ids = (text: string) => brandTokensIn(text, brands.brands).map((h) => h.brand.id);
const techniques = (url: string) => findImpersonation(parseTarget(url), brands).map((h) => `${h.brand}:${h.technique}`);

describe('skeleton (visual folding)', () => {
  it('folds Cyrillic and Greek look-alikes onto Latin', () => {
    assert.equal(skeleton('pаypаl'), 'paypal'); // Cyrillic а
    assert.equal(skeleton('аррӏе'), 'apple'); // all Cyrillic
    assert.equal(skeleton('gοοgle'), 'google'); // Greek ο
    assert.equal(skeleton('ԁropbox'), 'dropbox');
  });

  it('folds digit swaps and letter pairs that render as one letter', () => {
    assert.equal(skeleton('paypa1'), skeleton('paypal'));
    assert.equal(skeleton('g00gle'), 'google');
    assert.equal(skeleton('rnicrosoft'), skeleton('microsoft'));
    assert.equal(skeleton('vvalmart'), 'walmart');
  });

  it('strips accents and compatibility forms', () => {
    assert.equal(skeleton('pàypal'), 'paypal');
    assert.equal(skeleton('ｐａｙｐａｌ'), 'paypal');
  });

  it('folds i, l, 1 and | together, on both sides of a comparison', () => {
    assert.equal(skeleton('linkedin'), skeleton('1inked1n'));
    assert.equal(skeleton('icloud'), skeleton('lcloud'));
  });

  it('cuts hostile input instead of folding all of it', () => {
    const folded = skeleton('а'.repeat(100_000));
    assert.ok(folded.length <= 253);
  });
});

describe('singleEditBetween', () => {
  it('names the one edit', () => {
    assert.deepEqual(singleEditBetween('gooogle', 'google'), { kind: 'insertion', char: 'o', index: 3 });
    assert.deepEqual(singleEditBetween('gogle', 'google'), { kind: 'deletion', char: 'o', index: 2 });
    assert.deepEqual(singleEditBetween('amazom', 'amazon'), { kind: 'substitution', from: 'n', to: 'm', index: 5 });
    assert.deepEqual(singleEditBetween('googel', 'google'), { kind: 'transposition', index: 4 });
  });

  it('is undefined for equal strings and for two edits', () => {
    assert.equal(singleEditBetween('google', 'google'), undefined);
    assert.equal(singleEditBetween('gogel', 'google'), undefined);
    assert.equal(singleEditBetween('goooogle', 'google'), undefined);
  });
});

describe('editReadsAsToken', () => {
  const reads = (actual: string, token: string) => {
    const edit = singleEditBetween(actual, token);
    return edit !== undefined && editReadsAsToken(edit, token);
  };

  it('accepts typos of long tokens and visual substitutions', () => {
    assert.ok(reads('gooogle', 'google'));
    assert.ok(reads('netflx', 'netflix'));
    assert.ok(reads('amazom', 'amazon'));
  });

  it('keeps five-letter tokens apart from ordinary words', () => {
    assert.ok(!reads('apply', 'apple'));
    assert.ok(!reads('email', 'gmail'));
    assert.ok(!reads('black', 'slack'));
    assert.ok(reads('gmaill', 'gmail'));
    assert.ok(reads('aple', 'apple'));
  });

  it('rejects substitutions that make another word', () => {
    assert.ok(!reads('finance', 'binance'));
    assert.ok(!reads('goggle', 'google'));
  });

  it('never matches tokens under five letters', () => {
    assert.ok(!reads('ebey', 'ebay'));
  });
});

describe('brandTokensIn', () => {
  it('matches long tokens anywhere in a word', () => {
    assert.deepEqual(ids('paypalsecure-check'), ['paypal']);
    assert.deepEqual(ids('login-microsoftonline-secure'), ['microsoft']);
  });

  it('reports the longest token of a brand', () => {
    assert.equal(brandTokensIn('microsoftonline', brands.brands)[0]?.token, 'microsoftonline');
  });

  it('needs a word boundary or a service word for short tokens', () => {
    assert.deepEqual(ids('groups'), []);
    assert.deepEqual(ids('purchase'), []);
    assert.deepEqual(ids('pineapple'), []);
    assert.deepEqual(ids('steamship'), []);
    assert.deepEqual(ids('startups backups'), []);
    assert.deepEqual(ids('ups-tracking'), ['ups']);
    assert.deepEqual(ids('upstracking'), ['ups']);
    assert.deepEqual(ids('chaseonline'), ['chase']);
  });

  it('finds look-alike tokens only through the skeleton', () => {
    assert.deepEqual(ids('pаypal'), []);
    assert.deepEqual(
      lookalikeBrandTokensIn('pаypal', brands.brands).map((h) => h.brand.id),
      ['paypal'],
    );
  });

  // Hang-proof by construction (single passes, no backtracking); the suite would stall, not slow, otherwise.
  it('finds nothing in 100 KB of hostile filler', () => {
    assert.deepEqual(brandTokensIn('a-'.repeat(50_000), brands.brands), []);
    assert.deepEqual(lookalikeBrandTokensIn('x'.repeat(100_000), brands.brands), []);
  });
});

describe('lureWordsIn', () => {
  it('finds whole, split and glued lure words', () => {
    assert.deepEqual(lureWordsIn('/account/verify'), ['account', 'verify']);
    assert.deepEqual(lureWordsIn('/sign-in.html'), ['signin']);
    assert.deepEqual(lureWordsIn('myaccount'), ['account']);
  });

  it('ignores lure words inside other words', () => {
    assert.deepEqual(lureWordsIn('designing-tips'), []);
    assert.deepEqual(lureWordsIn('accountant'), []);
  });

  it('caps the input', () => {
    assert.ok(wordRuns('ab '.repeat(100_000)).length <= 4096);
  });
});

describe('ownership', () => {
  it('knows brand domains, subdomains and OAuth infrastructure domains', () => {
    assert.equal(brandOwning(parseTarget('https://login.microsoftonline.com/'), brands)?.id, 'microsoft');
    assert.equal(brandOwning(parseTarget('https://www.amazon.co.uk/'), brands)?.id, 'amazon');
    assert.equal(brandOwning(parseTarget('https://oauth2.googleapis.com/token'), brands)?.id, 'google');
    assert.equal(brandOwning(parseTarget('https://ims-na1-stg1.adobelogin.com/'), brands)?.id, 'adobe');
  });

  it('treats hosts under a private suffix as tenants, whose own label is what they are named by', () => {
    // googleapis.com is a private suffix in the Public Suffix List: fonts.googleapis.com is a "tenant" called fonts.
    assert.equal(brandOwning(parseTarget('https://fonts.googleapis.com/'), brands), undefined);
    assert.deepEqual(techniques('https://fonts.googleapis.com/css2'), []);
  });

  it('does not lend a brand domain to tenants of a multi-tenant suffix below it', () => {
    assert.equal(brandOwning(parseTarget('https://evil.web.core.windows.net/'), brands), undefined);
  });
});

describe('findImpersonation', () => {
  it('names the technique', () => {
    assert.deepEqual(techniques('https://paypal.com.secure-check.xyz/'), ['paypal:brand_token_in_subdomain']);
    assert.deepEqual(techniques('https://xn--pypal-4ve.com/'), ['paypal:homoglyph_lookalike']);
    assert.deepEqual(techniques('https://gooogle.com/'), ['google:typosquat']);
    assert.deepEqual(techniques('https://paypal.com@evil.example/'), ['paypal:brand_in_userinfo']);
  });

  it('reports one technique per brand', () => {
    assert.deepEqual(techniques('https://paypal.paypal-secure.top/'), ['paypal:brand_token_in_subdomain']);
  });

  it('is silent on every brand-owned host even when another brand is named', () => {
    assert.deepEqual(techniques('https://paypal.microsoft.com/'), []);
  });

  it('reads the userinfo of IP literals', () => {
    assert.deepEqual(techniques('http://paypal.com@192.0.2.1/'), ['paypal:brand_in_userinfo']);
    assert.deepEqual(techniques('http://192.0.2.1/'), []);
  });
});

describe('brand plugin', () => {
  it('returns no findings without a target', async () => {
    const detector = brand.create({ deps: { brands }, config: brand.meta.defaultConfig! });
    const out = await detector.detect({ surface: 'agent_action', signal: new AbortController().signal });
    assert.deepEqual(out.findings, []);
  });
});

describe('brand plugin on scans', () => {
  let rig: ScanRig;
  const detector = () => brand.create({ deps: { brands }, config: brand.meta.defaultConfig! });
  const _isPrefix = (flag: string) => flag === CT_SIBLING_PREFIX;
  before(async () => {
    rig = await openScanRig();
  });
  after(async () => {
    await rig.close();
  });

  // The fixture tables run in test/contract/plugins.test.ts, through the whole scan pipeline.

  it('lists every imitating sibling with its brand and distance', async () => {
    const evidence = await rig.collect('quillmere-assets.net');
    const out = await detector().detect({
      surface: 'scan',
      evidence,
      target: evidence.target,
      signal: AbortSignal.timeout(5_000),
    });
    assert.deepEqual(out.data?.['brand.data.ct_sibling_impersonation'], [
      { sibling: 'rnicrosoft-account-verify.com', brand: 'microsoft', distance: 0 },
      { sibling: 'paypa1-resolution.com', brand: 'paypal', distance: 0 },
    ]);
    assert.deepEqual(out.findings.map((f) => f.flag).sort(), [
      'brand:ct_sibling_impersonation_microsoft',
      'brand:ct_sibling_impersonation_paypal',
    ]);
  });

  it('reads the title and password field from a scanned page', async () => {
    const cues = pageCues(await rig.collect('mailbox-quota-center.com'));
    assert.equal(cues?.title, 'PayPal: Confirm your account');
    assert.equal(cues?.password_field, true);
  });

  it('omits the sibling list when neither CT nor TLS answered', async () => {
    const evidence = await rig.collect('quillmere-assets.net');
    const blind = {
      ...evidence,
      ct: { ok: false as const, reason: 'timeout' as const },
      tls: { ok: false as const, reason: 'timeout' as const },
    };
    const out = await detector().detect({
      surface: 'scan',
      evidence: blind,
      target: evidence.target,
      signal: AbortSignal.timeout(5_000),
    });
    assert.equal(out.data?.['brand.data.ct_sibling_impersonation'], undefined);
    assert.deepEqual(out.findings, []);
  });
});

describe('pageImpersonation', () => {
  /** A fetched page as the evidence carries it (no browser), so the page-identity reader runs on real HTML. */
  const evidenceOf = (url: string, html: string) =>
    ({
      target: parseTarget(url),
      page: { hops: [], final: { url, status: 200, headers: {}, body: html } },
      browser: { degraded: true, hops: [], behaviors: {} },
    }) as unknown as ScanEvidence;
  const login = (title: string, password = true, extra = '') =>
    `<html><head><title>${title}</title></head><body>${extra}<form method="post" action="/next.php">` +
    `<input type="email" name="email"><input type="${password ? 'password' : 'text'}" name="${password ? 'pass' : 'q'}">` +
    '<button>Continue</button></form></body></html>';
  const on = (url: string, title: string, password = true, extra = '') =>
    pageImpersonation(evidenceOf(url, login(title, password, extra)), brands).map((p) => p.brand);

  it('needs the brand named where the page names itself and a credential field, off the brand', () => {
    assert.deepEqual(on('https://mailbox-quota-center.com/', 'PayPal: Confirm your account'), ['paypal']);
    assert.deepEqual(on('https://mailbox-quota-center.com/', 'PayPal: Confirm your account', false), []);
    assert.deepEqual(on('https://www.paypal.com/signin', 'PayPal: Log in'), []);
    assert.deepEqual(on('https://x.example/', 'Bank of America | Online Banking'), ['bankofamerica']);
    assert.deepEqual(on('https://pro-desk-81.gitbook.io/', 'Coinbase Pro Login'), ['coinbase']);
    assert.deepEqual(on('https://x.example/', 'Facebook Security – Your Page Will Be Deactivated Soon'), ['facebook']);
  });

  it('reads logos, headings and copyright lines, and brands only the page names (page-identities.json)', () => {
    const extra = '<img src="/img/coinbase-logo.svg" alt="logo"><h1>Sign in to Coinbase</h1><p>© 2024 Coinbase</p>';
    assert.deepEqual(on('https://docs-7781.gitbook.io/', 'Login', true, extra), ['coinbase']);
    assert.deepEqual(on('https://maple-dental.com/', 'Sign in', true, '<h2>Вход в Яндекс ID</h2><p>© Яндекс</p>'), [
      'yandex',
    ]);
  });

  it('leaves sites offering a brand login, naming themselves, or using everyday brand words alone', () => {
    assert.deepEqual(on('https://acme-notes.example/', 'Acme | Sign in with Google'), []);
    assert.deepEqual(on('https://quillmere-studio.com/', 'Quillmere Studio: Microsoft 365 partner login'), []);
    assert.deepEqual(on('https://x.example/', 'Chase your goals - member login'), []);
    assert.deepEqual(on('https://x.example/', 'Steam cleaning staff portal'), []);
    assert.deepEqual(on('https://news.example/', 'Google and Apple face new rules', false, '<h1>Google</h1>'), []);
  });
});
