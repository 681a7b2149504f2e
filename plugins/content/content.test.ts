import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readHtml } from '../../core/engine/text/html-document.ts';
import { parseTarget } from '../../core/engine/url/target.ts';
import type { BrowserCapture } from '../../core/evidence/browser/browser-capture.ts';
import { findVendorChallenge } from '../../core/plugin-api.ts';
import type { ScanEvidence } from '../../core/services/scan/evidence.ts';
import { shippedCatalogs } from '../../test/support/catalogs.ts';
import { type ScanLab, startScanLab } from '../../test/support/scan-lab.ts';
import { credentialFunnel, fieldKind } from './credential-fields.ts';
import { assessGate } from './evasion-gate.ts';
import plugin from './index.ts';
import { offsiteCredentialCtas, pageSurface } from './offsite-cta.ts';
import {
  FAMILIES,
  MARKETPLACE,
  matchFamily,
  normalizeText,
  PARCEL_SHIPPING,
  STREAMING_CLONE,
} from './phrase-families.ts';
import { staticBehaviors } from './script-behaviors.ts';

const catalogs = shippedCatalogs();
const detector = plugin.create({ deps: catalogs, config: plugin.meta.defaultConfig! });
const ALL_FLAGS = Object.keys(plugin.meta.flags);

describe('content: HTML reading', () => {
  it('reads title, visible text, links, forms and inline scripts, skipping script and style text', () => {
    const doc = readHtml(
      `<html><head><title>T &amp; C</title><style>p{color:red}</style></head><body>
       <p>Hello&nbsp;world</p><!-- <a href="/hidden">x</a> -->
       <a href="https://x.example/a" title="a>b">Open <b>file</b></a>
       <form action="/go" method="POST"><label>Card number <input name="n"></label>
       <input type="hidden" name="t"><button type="submit">Pay now</button></form>
       <script>var s = "<a href='/no'>";</script></body></html>`,
    );
    assert.equal(doc.title, 'T & C');
    assert.match(doc.visibleText, /^Hello\u00a0?\s?world Open file Card number Pay now$/);
    assert.deepEqual(doc.links, [{ href: 'https://x.example/a', kind: 'link', text: 'Open file' }]);
    assert.equal(doc.forms[0]!.method, 'post');
    assert.equal(doc.forms[0]!.fields[0]!.label, 'Card number');
    assert.equal(doc.forms[0]!.submitText, 'Pay now');
    assert.equal(doc.inlineScripts.length, 1);
  });

  it('survives unterminated tags, scripts and comments', () => {
    for (const html of [
      '<script>while(1){',
      '<!-- never closed',
      '<a href="x',
      `<div ${'a'.repeat(10_000)}`,
      '<<<<>>>',
    ]) {
      const doc = readHtml(html);
      assert.equal(typeof doc.visibleText, 'string');
    }
  });

  it('reads hostile pages in bounded time (no catastrophic backtracking)', { timeout: 20_000 }, () => {
    const hostile = [
      '<a '.repeat(100_000),
      '<script>'.repeat(50_000),
      `<input name="${'card '.repeat(50_000)}`,
      `<p>${'order #1-1-1-1-1 '.repeat(20_000)}</p>`,
      `<p>${'shared '.repeat(40_000)}</p>`,
      `<script>${'localStorage['.repeat(40_000)}</script>`,
      `<p>${'a.pdf-'.repeat(40_000)}</p>`,
      `<a "${'<b>'.repeat(1500)}`.repeat(50),
      `<input a="${'a='.repeat(2000)}`.repeat(30),
    ];
    for (const html of hostile) {
      const doc = readHtml(html);
      const text = normalizeText(doc.visibleText);
      for (const family of FAMILIES) matchFamily(family, text);
      staticBehaviors(doc.inlineScripts);
      findVendorChallenge(html, {}, true);
      credentialFunnel(doc);
    }
  });

  it('reads stray `<` runs and tags whose end search fails in linear time (1 MB each)', () => {
    // Before: each stray `<` started a 4 KB tag-end search (500 000 of them: 40 s), and `">x"<a=` repeated made every
    // tag's quote-aware search fail after 4 KB; a page like that ran the content detector past its budget.
    for (const unit of ['<', '< ', '">x"<a=', '<<a><a ']) {
      const html = unit.repeat(Math.ceil(1_000_000 / unit.length));
      const started = performance.now();
      readHtml(html);
      assert.ok(performance.now() - started < 1_500, `${JSON.stringify(unit)} × ${html.length / unit.length}`);
    }
  });
});

describe('content: credential fields', () => {
  const field = (attrs: Record<string, string>, label = '') =>
    fieldKind({ tag: 'input', type: (attrs.type ?? 'text').toLowerCase(), attrs, label });

  it('classifies card, security-code, expiry, password, one-time-code and identity fields', () => {
    assert.equal(field({ name: 'cardNumber' }), 'card_number');
    assert.equal(field({ name: 'cc_number' }), 'card_number');
    assert.equal(field({ name: 'f2', autocomplete: 'cc-number' }), 'card_number');
    assert.equal(field({ name: 'cc_cvv', type: 'password' }), 'card_security_code');
    assert.equal(field({ name: 'exp', placeholder: 'MM/YY' }), 'card_expiry');
    assert.equal(field({ name: 'passwd', type: 'password' }), 'password');
    assert.equal(field({ name: 'code', autocomplete: 'one-time-code' }), 'one_time_code');
    assert.equal(field({ name: 'loginfmt', type: 'email' }), 'identity');
  });

  it('ignores tracking-number boxes, search boxes and hidden fields', () => {
    assert.equal(field({ name: 'id', placeholder: 'Tracking number, e.g. SP-1234-5678-GB' }), undefined);
    assert.equal(field({ name: 'q', placeholder: 'Search' }), undefined);
    assert.equal(field({ name: 'card', type: 'hidden' }), undefined);
  });

  it('counts an identity form posting to a sign-in endpoint as a credential form', () => {
    const funnel = credentialFunnel(
      readHtml('<form method="post" action="/ap/signin"><input type="email" name="email"></form>'),
    );
    assert.equal(funnel.harvestsSecrets, false);
    assert.equal(funnel.credential_forms.length, 1);
    const newsletter = credentialFunnel(
      readHtml('<form method="post" action="/newsletter"><input type="email"></form>'),
    );
    assert.equal(newsletter.credential_forms.length, 0);
  });
});

describe('content: phrase families', () => {
  const matches = (family: typeof PARCEL_SHIPPING, text: string) => matchFamily(family, normalizeText(text)).matched;

  it('need both a context and a pressure phrase', () => {
    assert.ok(matches(PARCEL_SHIPPING, 'Your package could not be delivered. Pay the customs fee to release it.'));
    assert.ok(!matches(PARCEL_SHIPPING, 'Track your parcel and choose a safe place.'));
    assert.ok(!matches(PARCEL_SHIPPING, 'Pay the outstanding balance on your invoice.'));
    assert.ok(matches(STREAMING_CLONE, 'We couldn’t renew your subscription. Update your billing information.'));
    assert.ok(
      !matches(STREAMING_CLONE, 'Thousands of films and series. Your membership can be cancelled online at any time.'),
    );
    assert.ok(matches(MARKETPLACE, 'Your order 55-1 has been suspended. Confirm your payment details.'));
    assert.ok(!matches(MARKETPLACE, 'Review your order. Free shipping on orders over $50.'));
    assert.ok(matches(STREAMING_CLONE, 'Disney+: your payment could not be processed. Restart your subscription.'));
    assert.ok(matches(MARKETPLACE, "Amazon Prime: we're having trouble with your payment method."));
  });
});

describe('content: static script behaviours', () => {
  it('reads storage, cookie, permission and redirect calls from inline scripts', () => {
    const b = staticBehaviors([
      `localStorage.setItem('k', 1); sessionStorage['s'] = 2; window.localStorage.x = 3; document.cookie = 'a=1';
       Notification.requestPermission(); navigator.permissions.query({name: 'camera'});
       if (navigator.webdriver) {} location.replace('/next');`,
    ]);
    assert.deepEqual(b.storage_writes, ['localStorage:k', 'sessionStorage:s', 'localStorage:x']);
    assert.equal(b.cookie_writes, 1);
    assert.deepEqual(b.permission_prompts, ['notifications', 'permissions_query']);
    assert.equal(b.js_redirects, 1);
    assert.equal(b.automation_probe, true);
  });

  it('does not mistake reads and comparisons for writes', () => {
    const b = staticBehaviors([
      `if (location.href == x || document.cookie === '') { var h = location.hash; localStorage.getItem('k'); }`,
    ]);
    assert.deepEqual(
      { ...b, source: undefined },
      { storage_writes: [], cookie_writes: 0, permission_prompts: [], js_redirects: 0, source: undefined },
    );
  });
});

describe('content: gate and vendor challenge', () => {
  const behaviors = (over: Partial<ReturnType<typeof staticBehaviors>> = {}) => ({
    ...staticBehaviors([]),
    ...over,
  });
  const gate = (over: Partial<Parameters<typeof assessGate>[0]>) =>
    assessGate({
      visibleText: 'One moment…',
      linkCount: 0,
      hasTextEntry: false,
      behaviors: behaviors(),
      vendorMarker: false,
      ...over,
    }).status;

  it('needs a holding page, no vendor marker, and a permission prompt or a redirect leaving state behind', () => {
    assert.equal(
      gate({ behaviors: behaviors({ storage_writes: ['localStorage:a'], js_redirects: 1 }) }),
      'evasion_gate',
    );
    assert.equal(gate({ behaviors: behaviors({ permission_prompts: ['notifications'] }) }), 'evasion_gate');
    assert.equal(gate({ behaviors: behaviors({ js_redirects: 1 }) }), 'no_gate_behavior');
    assert.equal(gate({ behaviors: behaviors({ cookie_writes: 1 }) }), 'no_gate_behavior');
    assert.equal(
      gate({ behaviors: behaviors({ cookie_writes: 1, storage_writes: ['localStorage:t'] }) }),
      'no_gate_behavior',
    );
    assert.equal(
      gate({ behaviors: behaviors({ permission_prompts: ['notifications'] }), vendorMarker: true }),
      'vendor_challenge',
    );
    assert.equal(
      gate({ behaviors: behaviors({ permission_prompts: ['notifications'] }), visibleText: 'x'.repeat(800) }),
      'page_has_content',
    );
  });

  it('promotes a protected-only marker to a challenge only on a bare page', () => {
    const widget = '<div class="cf-turnstile" data-sitekey="k"></div>';
    assert.equal(findVendorChallenge(widget, {}, true).challenge?.vendor, 'cloudflare_turnstile');
    assert.equal(findVendorChallenge(widget, {}, false).challenge, undefined);
    assert.equal(findVendorChallenge(widget, {}, false).anyMarker?.vendor, 'cloudflare_turnstile');
    assert.equal(
      findVendorChallenge('<p>hi</p>', { 'cf-mitigated': 'challenge' }, false).challenge?.vendor,
      'cloudflare',
    );
    assert.equal(findVendorChallenge('<p>hi</p>', { server: 'cloudflare', 'cf-ray': 'x' }, true).anyMarker, undefined);
  });
});

describe('content: off-site credential CTAs', () => {
  const ctasFor = (host: string, html: string) => {
    const page = parseTarget(`https://${host}/`);
    const doc = readHtml(html);
    return offsiteCredentialCtas(
      doc,
      credentialFunnel(doc),
      page,
      pageSurface(page, catalogs.hosting),
      catalogs.brands,
    );
  };

  it('fires only for shared-platform tenants linking credential actions to unrelated domains', () => {
    const lure = '<a href="https://acct-check.top/login">Sign in</a>';
    assert.equal(ctasFor('notice-1.pages.dev', lure).length, 1);
    assert.equal(ctasFor('notice-1.example.com', lure).length, 0);
    assert.equal(ctasFor('acme-docs.pages.dev', '<a href="https://app.acme.io/login">Sign in</a>').length, 0);
    assert.equal(ctasFor('notice-1.pages.dev', '<a href="https://github.com/login">Sign in with GitHub</a>').length, 0);
    assert.equal(ctasFor('notice-1.pages.dev', '<a href="https://github.com/o/r">View on GitHub</a>').length, 0);
    assert.equal(ctasFor('notice-1.pages.dev', '<a href="/login">Sign in</a>').length, 0);
  });
});

describe('content: browser capture is preferred when it ran', () => {
  it('uses observed behaviours and the browser vendor verdict', async () => {
    const target = parseTarget('https://gate-example.xyz/');
    const browser: BrowserCapture = {
      mode: 'chromium',
      degraded: false,
      final_url: 'https://gate-example.xyz/',
      hops: [{ url: 'https://gate-example.xyz/', kind: 'initial', status: 200 }],
      html: '<html><body><p>Checking your browser…</p></body></html>',
      visible_text: 'Checking your browser…',
      behaviors: { storage_writes: ['localStorage:x'], cookie_writes: 1, permission_prompts: [], js_redirects: 2 },
      duration_ms: 10,
    };
    const page = { requested_url: target.url.href, final_url: target.url.href, hops: [], stopped: 'final' } as const;
    const evidence = { target, page, browser } as unknown as ScanEvidence;
    const run = (b: BrowserCapture) =>
      detector.detect({
        surface: 'scan',
        target,
        evidence: { ...evidence, browser: b },
        signal: new AbortController().signal,
      });
    const gated = await run(browser);
    assert.deepEqual(
      gated.findings.map((f) => f.flag),
      ['content:analysis_evasion_gate'],
    );
    const challenged = await run({ ...browser, behaviors: { ...browser.behaviors, vendor_challenge: 'akamai' } });
    assert.deepEqual(
      challenged.findings.map((f) => f.flag),
      ['content:scanner_blocked'],
    );
  });
});

interface FixtureCase {
  name: string;
  input: { surface: 'scan'; site: string; path?: string };
}

describe('content on the lab', () => {
  let lab: ScanLab;
  before(async () => {
    lab = await startScanLab();
  });
  after(async () => {
    await lab.close();
  });

  async function scan(c: FixtureCase) {
    const output = await lab.detect(detector, c.input.site, c.input.path);
    for (const f of output.findings) assert.ok(ALL_FLAGS.includes(f.flag), `undeclared flag ${f.flag}`);
    return output;
  }

  // The fixture tables run in test/contract/plugins.test.ts, through the whole scan pipeline.

  it('fills content.data with the spec fields', async () => {
    const { data } = await scan({
      name: 'shared docs',
      input: { surface: 'scan', site: 'shared-docs-7731.pages.dev' },
    });
    const content = data?.['content.data'] as Record<string, unknown>;
    for (const field of [
      'document_share_lure_phrases',
      'offsite_credential_ctas',
      'offsite_cta_page_surface',
      'analysis_evasion_gate',
      'scanner_block_vendor_challenge',
      'visible_text_length',
      'parcel_shipping_lure_phrases',
      'streaming_clone_lure_phrases',
      'streaming_clone_brand_hits',
      'marketplace_brand_lure_phrases',
      'marketplace_brand_hits',
      'marketplace_brand_path_hits',
    ]) {
      assert.ok(field in content, `content.data.${field} is missing`);
    }
    assert.deepEqual((content.offsite_credential_ctas as { registrable_domain: string }[])[0], {
      text: 'View documents',
      url: 'https://docview-secure-login.top/s/7731/?src=od',
      host: 'docview-secure-login.top',
      registrable_domain: 'docview-secure-login.top',
    });
  });
});
