import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTarget } from '../../core/url/target.ts';
import { shippedCatalogs } from '../../test/support/catalogs.ts';
import { classifyHosting, freeHostingTenant } from './hosting-surface.ts';
import infrastructure from './index.ts';
import { brandLures, credentialFormTermsIn, hasLure, lureSignals } from './lure-signals.ts';

const { brands, hosting } = shippedCatalogs();
const classify = (url: string) => classifyHosting(parseTarget(url), hosting);

function signalsOf(url: string, pageText?: string) {
  const target = parseTarget(url);
  const tenant = freeHostingTenant(target, hosting);
  assert.ok(tenant, `${url} is not a free-hosting tenant`);
  return { target, signals: lureSignals(target, tenant, pageText) };
}

describe('classifyHosting', () => {
  it('normalises IP literals whatever their spelling', () => {
    assert.equal(classify('http://3232235777/').ip, '192.168.1.1');
    assert.equal(classify('http://0x7f.1/').ip, '127.0.0.1');
    assert.equal(classify('http://[::ffff:127.0.0.1]/').ip, '::ffff:7f00:1');
    assert.equal(classify('https://10.0.0.1.nip.io/').ip, undefined);
  });

  it('scores the tenant, never the platform', () => {
    assert.equal(classify('https://vercel.app/').freeHosting, undefined);
    assert.equal(classify('https://www.vercel.app/').freeHosting, undefined);
    assert.equal(classify('https://vercel.app/').hosting_tenancy, 'dedicated_or_unknown');
    const tenant = classify('https://a.b.paypal-login.vercel.app/');
    assert.equal(tenant.freeHosting?.tenantSite, 'paypal-login.vercel.app');
    assert.equal(tenant.hosting_tenancy, 'shared_multi_tenant');
    assert.equal(tenant.shared_hosting_suffix, 'vercel.app');
  });

  it('calls tenants of uncurated private suffixes shared, without a free-hosting provider', () => {
    const s3 = classify('https://my-bucket.s3.amazonaws.com/file');
    assert.equal(s3.hosting_tenancy, 'shared_multi_tenant');
    assert.equal(s3.freeHosting, undefined);
    assert.equal(classify('https://www.example.com/').hosting_tenancy, 'dedicated_or_unknown');
  });
});

describe('lureSignals', () => {
  it('reads lure words from the tenant labels and the path only', () => {
    assert.deepEqual(signalsOf('https://account-verify.pages.dev/').signals.lure_words, ['account', 'verify']);
    assert.deepEqual(signalsOf('https://docs.pages.dev/sign-in.html').signals.lure_words, ['signin']);
    // The suffix is the platform's word, not the tenant's.
    assert.deepEqual(signalsOf('https://notes.web.app/').signals.lure_words, []);
  });

  it('sees authorize flows, credential wording and off-site redirects', () => {
    assert.ok(signalsOf('https://x.workers.dev/oauth2/authorize?client_id=1').signals.authorize_flow);
    assert.deepEqual(signalsOf('https://x.web.app/', 'Please ENTER your  password').signals.credential_form_terms, [
      'enter your password',
    ]);
    assert.deepEqual(signalsOf('https://x.web.app/?redirect=https://y.example/').signals.offsite_redirects, [
      { param: 'redirect', host: 'y.example' },
    ]);
    assert.deepEqual(signalsOf('https://x.web.app/?next=https://x.web.app/a').signals.offsite_redirects, []);
    assert.deepEqual(signalsOf('https://x.web.app/?next=notaurl').signals.offsite_redirects, []);
  });

  it('reads only a bounded head of page text and path', () => {
    // The phrase sits past the 100 KB cut: not reading it is the proof that the rest was never scanned.
    assert.deepEqual(credentialFormTermsIn(`${'lorem ipsum '.repeat(10_000)}enter your password`), []);
    assert.deepEqual(credentialFormTermsIn(`${'lorem ipsum '.repeat(100)}enter your password`), [
      'enter your password',
    ]);
    const target = parseTarget(`https://x.web.app/${'login/'.repeat(600)}`);
    const signals = lureSignals(target, freeHostingTenant(target, hosting)!, 'x'.repeat(100_000));
    assert.deepEqual(signals.lure_words, ['login']);
  });
});

describe('brandLures', () => {
  const lures = (url: string) => {
    const { target, signals } = signalsOf(url);
    return brandLures(target, brands, signals).map((l) => `${l.brand}:${l.where}`);
  };

  it('counts a brand in the tenant name on its own', () => {
    assert.deepEqual(lures('https://paypal-help.vercel.app/'), ['paypal:tenant']);
  });

  it('counts a brand in the path only next to a lure signal', () => {
    assert.deepEqual(lures('https://notes-2024.pages.dev/office365/'), []);
    assert.deepEqual(lures('https://notes-2024.pages.dev/office365/login'), ['microsoft:path']);
  });

  it('leaves brand accounts on account-namespace platforms alone', () => {
    assert.deepEqual(lures('https://microsoft.github.io/login/'), []);
    assert.deepEqual(lures('https://microsoft-login.github.io/'), ['microsoft:tenant']);
  });

  it('ignores short tokens inside ordinary words', () => {
    assert.deepEqual(lures('https://groups-login.vercel.app/'), []);
  });

  it('needs a lure to turn a free tenant into a free-hosting lure', () => {
    assert.equal(hasLure(signalsOf('https://my-portfolio.vercel.app/').signals), false);
  });
});

describe('infrastructure plugin', () => {
  it('returns context data even when nothing fires', async () => {
    const detector = infrastructure.create({ deps: { brands, hosting }, config: undefined });
    const out = await detector.detect({
      surface: 'agent_action',
      target: parseTarget('https://www.example.com/'),
      signal: new AbortController().signal,
    });
    assert.deepEqual(out, {
      findings: [],
      data: { host: 'www.example.com', hosting_tenancy: 'dedicated_or_unknown', enrichment_evidence: [] },
    });
  });

  it('returns no findings without a target', async () => {
    const detector = infrastructure.create({ deps: { brands, hosting }, config: undefined });
    const out = await detector.detect({ surface: 'agent_action', signal: new AbortController().signal });
    assert.deepEqual(out.findings, []);
  });
});
