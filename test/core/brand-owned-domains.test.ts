// Brand-owned infrastructure, popular sites and shared platforms in the URL brand matcher (issue 10, item 4):
// a brand word on the brand's own machines or a popular site's own host is not impersonation; a look-alike is.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BrandCatalog } from '../../core/engine/url/catalogs.ts';
import { parseTarget } from '../../core/engine/url/target.ts';
import { findImpersonation } from '../../plugins/_shared/brand-matching/impersonation.ts';
import { freeHostingTenant } from '../../plugins/_shared/hosting-surface.ts';
import { brandLures, lureSignals } from '../../plugins/infrastructure/lure-signals.ts';
import { shippedCatalogs } from '../support/catalogs.ts';

const { brands, hosting } = shippedCatalogs();
const impersonated = (url: string) => findImpersonation(parseTarget(url), brands).map((h) => h.brand);

describe('brand-owned domains and popular sites', () => {
  const owned = [
    'https://rr5---sn-p5qlsn76.googlevideo.com/videoplayback',
    'https://na.adsqtungsten.a9.amazon.dev/',
    'https://cs1.wac-msedge.net/',
    'https://static.xx.fbcdn.net/rsrc.php',
    'https://gateway.icloud.com/',
    'https://p12-ckdatabasews.apple-cloudkit.com/',
    'https://pagead2.googlesyndication.com/',
    'https://officecdn-microsoft-com.akamaized.net/pr/',
    'https://assets.nflxext.com/',
    'https://community.akamai.steamstatic.com/',
    // Registries open only to governments and institutions: no look-alike can be registered there.
    'https://eagnmnmep1a69.usps.gov/',
    'https://www.amazon.ncsl.nist.gov/',
  ];
  for (const url of owned) {
    it(`is not impersonation on the brand's own infrastructure: ${url}`, () => {
      assert.deepEqual(impersonated(url), []);
    });
  }

  const lookalikes: [string, string][] = [
    ['https://googlevideo-login.com/', 'google'],
    ['https://amazon-dev-billing.com/', 'amazon'],
    ['https://login-microsoftonline-secure.com/', 'microsoft'],
    ['https://apple-cloudkit-verify.net/', 'apple'],
    ['https://paypal-login.vercel.app/', 'paypal'],
    ['https://secure-paypal.account-check.top/', 'paypal'],
    ['https://paypal.com@evil.example/', 'paypal'],
    ['https://paypal.com@wikipedia.org/', 'paypal'],
  ];
  for (const [url, brand] of lookalikes) {
    it(`still flags the look-alike ${url}`, () => {
      assert.ok(impersonated(url).includes(brand), `${url}: ${impersonated(url).join(', ')}`);
    });
  }

  it('a popular site’s own host is not a look-alike, but its shared-platform tenants gain nothing', () => {
    const popular = new BrandCatalog(brands.brands, {
      domains: new Set(['wordpress-news.example']),
      brandCdnSuffixes: [],
    });
    assert.deepEqual(findImpersonation(parseTarget('https://paypal.wordpress-news.example/'), popular), []);
    assert.deepEqual(
      findImpersonation(parseTarget('https://paypal.wordpress-news.example/'), brands).map((h) => h.brand),
      ['paypal'],
    );
    // vercel.app is a private suffix: the tenant is its own site whatever the platform's standing.
    const withPlatform = new BrandCatalog(brands.brands, { domains: new Set(['vercel.app']), brandCdnSuffixes: [] });
    assert.deepEqual(
      findImpersonation(parseTarget('https://paypal-login.vercel.app/'), withPlatform).map((h) => h.brand),
      ['paypal'],
    );
  });
});

/** The list scan freeHostingFor replaced (first listed match wins), kept as the reference its fast path must equal. */
function referenceFreeHosting(target: { host: string; url?: URL }) {
  for (const { suffix, provider, path_prefix } of hosting.data.free_hosting) {
    if (path_prefix === undefined || !target.url || target.host !== suffix) continue;
    if (!target.url.pathname.startsWith(path_prefix)) continue;
    const tenant = target.url.pathname.slice(path_prefix.length).split('/')[0]?.slice(0, 128).toLowerCase();
    if (tenant) return { suffix, provider, tenant, tenantSite: `${suffix}${path_prefix}${tenant}`, path_prefix };
  }
  const bare = target.host.startsWith('www.') ? target.host.slice(4) : target.host;
  if (hosting.data.free_hosting.some((f) => f.path_prefix === undefined && bare === f.suffix)) return undefined;
  for (const { suffix, provider, path_prefix } of hosting.data.free_hosting) {
    if (path_prefix !== undefined || !target.host.endsWith(`.${suffix}`)) continue;
    const rest = target.host.slice(0, -suffix.length - 1);
    const tenant = rest.slice(rest.lastIndexOf('.') + 1);
    return { suffix, provider, tenant, tenantSite: `${tenant}.${suffix}` };
  }
  return undefined;
}

describe('free-hosting surfaces', () => {
  it('freeHostingFor answers as a scan of the list does, on every listed platform and hosts around it', () => {
    const hosts = new Set<string>(['example.com', 'www.example.com', 'localhost', 'a.b.c.d.e']);
    for (const { suffix, path_prefix } of hosting.data.free_hosting) {
      for (const h of [suffix, `www.${suffix}`, `tenant.${suffix}`, `a.b.${suffix}`, `x${suffix}`, suffix.slice(1)]) {
        hosts.add(h);
      }
      if (path_prefix) hosts.add(`${suffix}${path_prefix}`);
      // A listed suffix under another listed one: whichever is listed first must win.
      for (const other of hosting.data.free_hosting.slice(0, 20)) hosts.add(`t.${suffix}.${other.suffix}`);
    }
    let compared = 0;
    for (const host of hosts) {
      for (const pathname of ['/', '/view/my-site/home', '/ipfs/bafy/x', '/p/ABC/']) {
        let url: URL;
        try {
          url = new URL(`https://${host}${pathname}`);
        } catch {
          continue;
        }
        const target = { host: url.hostname, url };
        assert.deepEqual(hosting.freeHostingFor(target), referenceFreeHosting(target), url.href);
        assert.deepEqual(hosting.freeHostingFor({ host: url.hostname }), referenceFreeHosting({ host: url.hostname }));
        compared++;
      }
    }
    assert.ok(compared > 1000, `${compared} hosts compared`);
  });

  it('knows site builders such as gitbook.io', () => {
    const tenant = freeHostingTenant(parseTarget('https://coinbase-pro-login.gitbook.io/us'), hosting);
    assert.equal(tenant?.tenantSite, 'coinbase-pro-login.gitbook.io');
    assert.equal(freeHostingTenant(parseTarget('https://gitbook.io/'), hosting), undefined);
  });

  it('reads path-based platforms: the tenant is the path segment, the platform itself is not a tenant', () => {
    const site = freeHostingTenant(parseTarget('https://sites.google.com/view/paypal-verify-account/home'), hosting);
    assert.equal(site?.tenantSite, 'sites.google.com/view/paypal-verify-account');
    assert.equal(site?.provider, 'Google Sites');
    assert.equal(freeHostingTenant(parseTarget('https://sites.google.com/'), hosting), undefined);
    assert.equal(freeHostingTenant(parseTarget('https://www.google.com/view/x'), hosting), undefined);
    const ipfs = freeHostingTenant(
      parseTarget('https://ipfs.io/ipfs/bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi'),
      hosting,
    );
    assert.equal(ipfs?.provider, 'IPFS gateway (ipfs.io)');
  });

  it('a brand in the path of a tenant on a brand-owned platform is still a brand lure', () => {
    const target = parseTarget('https://sites.google.com/view/paypal-verify-account/home');
    const tenant = freeHostingTenant(target, hosting);
    assert.ok(tenant);
    const lures = brandLures(target, brands, lureSignals(target, tenant), tenant);
    assert.deepEqual(
      lures.map((l) => `${l.brand}:${l.where}`),
      ['paypal:path'],
    );
  });
});
