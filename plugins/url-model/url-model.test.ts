// The learned URL scorer: features are deterministic, the hash is stable, brand-owned and popular hosts never
// reach the model, and a tiny model trained inline ranks the URLs it was built to rank.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTarget } from '../../core/engine/url/target.ts';
import { shippedCatalogs } from '../../test/support/catalogs.ts';
import { fnv1a, hashFeatures, urlFeatures } from './features.ts';
import { isScorable } from './gate.ts';
import { modelOfWeights, scoreUrl, shippedModel } from './model.ts';

const ctx = shippedCatalogs();

describe('url-model features', () => {
  it('are the same on every call and hash the same way (FNV-1a)', () => {
    const target = parseTarget('https://secure-paypal-verify.top/signin/update.php?id=1');
    assert.deepEqual(urlFeatures(target, ctx), urlFeatures(target, ctx));
    assert.equal(fnv1a(''), 0x811c9dc5);
    assert.equal(fnv1a('a'), 0xe40c292c);
    assert.deepEqual(hashFeatures(['x', 'x', 'y'], 8).length, 2);
  });

  it('read a free-hosting tenant by its own name, never the platform’s', () => {
    const f = urlFeatures(parseTarget('https://wallet-restore.pages.dev/'), ctx);
    assert.ok(f.includes('host:free_hosting'));
    assert.ok(f.includes('reg:word:wallet'));
    assert.ok(!f.includes('reg:word:pages'));
  });

  it('carry the brand matcher’s verdict, which respects brand-owned domains', () => {
    assert.ok(urlFeatures(parseTarget('https://paypal-login.example/'), ctx).includes('brand:brand_token_in_domain'));
    assert.ok(!urlFeatures(parseTarget('https://a.googlevideo.com/'), ctx).some((f) => f.startsWith('brand:')));
  });
});

describe('url-model gate', () => {
  it('never scores brand-owned or popular sites, always scores tenants and unknown sites', () => {
    for (const url of [
      'https://rr5---sn-p5qlsn76.googlevideo.com/',
      'https://na.a9.amazon.dev/',
      'https://www.wikipedia.org/',
    ]) {
      assert.equal(isScorable(parseTarget(url), ctx), false, url);
    }
    // Names the platform assigned are not scored either; a bucket name someone chose is.
    assert.equal(isScorable(parseTarget('https://d1ayctixdv89j1.cloudfront.net/'), ctx), false);
    assert.equal(isScorable(parseTarget('https://apps-1907746885933852.apps.fbsbx.com/'), ctx), false);
    // A listed shared platform or shortener: its own front page is not scored, its tenants and paths are.
    for (const url of ['https://netlify.app/', 'https://www.tinyurl.com/']) {
      assert.equal(isScorable(parseTarget(url), ctx), false, url);
    }
    for (const url of [
      'https://paypal-check.netlify.app/',
      'https://tinyurl.com/2p8x7kq',
      'https://tinyurl.com/?u=x',
    ]) {
      assert.equal(isScorable(parseTarget(url), ctx), true, url);
    }
    for (const url of [
      'https://paypal-login.vercel.app/',
      'https://x.example/',
      'http://203.0.113.9/',
      'https://paypal-verify.s3.amazonaws.com/index.html',
      'https://compromised-lab.university.edu/wp-content/login.php',
    ]) {
      assert.equal(isScorable(parseTarget(url), ctx), true, url);
    }
  });
});

describe('url-model scoring', () => {
  it('a model trained inline on a few URLs scores deterministically and separates them', () => {
    const phishing = ['https://secure-login-verify.top/account/update.php', 'https://wallet-connect-restore.xyz/'];
    const benign = ['https://www.city-library.org/events', 'https://docs.tinyqueue.dev/install'];
    const bits = 12;
    const weights = new Float64Array(1 << bits);
    for (let epoch = 0; epoch < 50; epoch++) {
      for (const [urls, y] of [
        [phishing, 1],
        [benign, 0],
      ] as const) {
        for (const url of urls) {
          const x = hashFeatures(urlFeatures(parseTarget(url), ctx), bits);
          const p = 1 / (1 + Math.exp(-x.reduce((s, i) => s + weights[i]!, 0)));
          for (const i of x) weights[i]! -= 0.1 * (p - y);
        }
      }
    }
    const model = modelOfWeights(bits, weights);
    const s = (url: string) => scoreUrl(parseTarget(url), ctx, model).score;
    assert.equal(s(phishing[0]!), s(phishing[0]!));
    for (const p of phishing) for (const b of benign) assert.ok(s(p) > s(b), `${p} vs ${b}`);
  });

  it('the shipped model rates a brand lure on a throw-away TLD above an ordinary shop page', () => {
    const model = shippedModel();
    const lure = scoreUrl(parseTarget('https://secure-paypal-account-verify-login.top/signin/update.php'), ctx, model);
    const shop = scoreUrl(parseTarget('https://www.northwind-outfitters.com/products/tents'), ctx, model);
    assert.ok(lure.score > shop.score);
    assert.ok(lure.top_features.length > 0);
  });
});
