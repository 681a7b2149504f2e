import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseTarget } from '../../core/engine/url/target.ts';
import { shippedCatalogs } from '../../test/support/catalogs.ts';
import { fired, openScanRig, type ScanRig, scanCases } from '../../test/support/scan-fixture-rig.ts';
import { isPlatformWildcard } from '../_shared/fingerprints.ts';
import { classifyHosting, freeHostingTenant } from '../_shared/hosting-surface.ts';
import { hasPasswordField, textOf, titleOf } from '../_shared/page-cues.ts';
import { DEFAULT_INFRASTRUCTURE_CONFIG } from './config.ts';
import { classifyHostingIntel } from './hosting-intel.ts';
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
    const docs = classify('https://myproject.readthedocs.io/en/latest/');
    assert.equal(docs.hosting_tenancy, 'shared_multi_tenant');
    assert.equal(docs.shared_hosting_suffix, 'readthedocs.io');
    assert.equal(docs.freeHosting, undefined);
    // S3 bucket hosts are curated free hosting (anyone names a bucket and serves a page from it).
    assert.equal(
      classify('https://my-bucket.s3.amazonaws.com/file').freeHosting?.tenantSite,
      'my-bucket.s3.amazonaws.com',
    );
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
  let rig: ScanRig;
  const detector = () =>
    infrastructure.create({ deps: { ...rig.catalogs, history: rig.history }, config: DEFAULT_INFRASTRUCTURE_CONFIG });
  const cases = scanCases(new URL('./fixtures.json', import.meta.url));
  const scanCase = (site: string) => cases.invalid.find((c) => c.input.site === site)!;
  before(async () => {
    rig = await openScanRig();
  });
  after(async () => {
    await rig.close();
  });

  it('returns context data even when nothing fires', async () => {
    const out = await detector().detect({
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
    const out = await detector().detect({ surface: 'agent_action', signal: new AbortController().signal });
    assert.deepEqual(out.findings, []);
  });

  // The fixture tables run in test/contract/plugins.test.ts, through the whole scan pipeline (composites too).

  it('publishes the hosting classification and the normalized infrastructure record', async () => {
    const { output } = await rig.run(scanCase('vantor-billing-desk.com'), detector());
    assert.deepEqual(output.data?.['geolocation.data.hosting_classification'], {
      hosting_provider: 'Stark Industries Solutions Ltd',
      asn: 44477,
      abuse_prone: true,
      matched_marker: 'AS44477',
    });
    assert.equal(((output.data?.['geolocation.data.hosting_evidence'] ?? []) as string[]).length, 2);
    const record = (output.data?.infrastructure ?? {}) as Record<string, unknown>;
    assert.equal(record.asn, 44477);
    assert.equal(record.hosting_provider, 'Stark Industries Solutions Ltd');
    assert.equal(record.hosting_tenancy, 'dedicated_or_unknown');
    assert.equal(record.ip, '192.0.2.201');
    assert.equal(record.domain_age_days, 400);
    assert.equal(typeof record.tls_age_days, 'number');
    assert.ok(
      ((output.data?.['infrastructure.data.enrichment_evidence'] ?? []) as string[]).some((l) => l.includes('AS44477')),
    );
  });

  it('names the shared platform of a free-hosting tenant', async () => {
    const { output } = await rig.run(scanCase('quarterly-notes-4821.netlify.app'), detector());
    const record = (output.data?.infrastructure ?? {}) as Record<string, unknown>;
    assert.equal(record.hosting_tenancy, 'shared_multi_tenant');
    assert.equal(record.free_hosting_provider, 'Netlify');
    assert.equal(record.shared_hosting_provider, 'Netlify');
    assert.equal(record.shared_hosting_suffix, 'netlify.app');
    assert.equal(
      ((output.data?.['infrastructure.data.lure_signals'] ?? {}) as { login_form?: boolean }).login_form,
      true,
    );
  });

  it('reports the reused fingerprint with its distinct earlier sources', async () => {
    const { output } = await rig.run(scanCase('marrowfield-auth.com'), detector());
    const match = (output.data?.['infrastructure.data.reused_fingerprint_match'] ?? {}) as Record<string, unknown>;
    assert.equal(match.fingerprint_type, 'favicon_hash');
    assert.equal(match.distinct_sources, 2);
    assert.equal(typeof match.fingerprint_value, 'string');
  });

  it('omits host-intel fields when the vendor did not answer', async () => {
    const evidence = await rig.collect('lantern-quay-books.com');
    const noIntel = {
      ...evidence,
      hostIntel: { ok: false as const, reason: 'not_configured' as const, queried_vendor: false, vendor: 'shodan' },
    };
    const out = await detector().detect({
      surface: 'scan',
      evidence: noIntel,
      target: evidence.target,
      signal: AbortSignal.timeout(5_000),
    });
    assert.ok(!fired(out, 'infrastructure:hosting_provider_identified'));
    assert.equal(out.data?.['geolocation.data.hosting_classification'], undefined);
    assert.equal(((out.data?.infrastructure ?? {}) as Record<string, unknown>).asn, undefined);
  });
});

describe('classifyHostingIntel', () => {
  const intel = (org: string, asn?: number) => ({
    ok: true as const,
    cached: false,
    queried_vendor: true,
    vendor: 'shodan',
    value: {
      ip: '192.0.2.1',
      org,
      hostnames: [],
      domains: [],
      ports: [],
      services: [],
      ...(asn ? { asn_number: asn } : {}),
    },
  });
  const markers = DEFAULT_INFRASTRUCTURE_CONFIG.abuseProneMarkers;

  it('matches a listed ASN or a listed provider as whole words', () => {
    assert.equal(classifyHostingIntel(intel('Whatever Ltd', 9009), markers)?.matched_marker, 'AS9009');
    assert.equal(classifyHostingIntel(intel('M247 Europe SRL'), markers)?.matched_marker, 'M247');
    assert.equal(classifyHostingIntel(intel('AEZA GROUP Ltd'), markers)?.matched_marker, 'Aeza');
    assert.equal(classifyHostingIntel(intel('Aezakmi Web Ltd'), markers)?.abuse_prone, false);
    assert.equal(classifyHostingIntel(intel('DigitalOcean, LLC', 14061), markers)?.abuse_prone, false);
  });
});

describe('fingerprints', () => {
  it('treats a wildcard straight over a platform suffix as the platform certificate', () => {
    assert.equal(isPlatformWildcard('*.pages.dev'), true);
    assert.equal(isPlatformWildcard('*.vercel.app'), true);
    assert.equal(isPlatformWildcard('*.example.com'), false);
    assert.equal(isPlatformWildcard('pages.dev'), false);
  });
});

describe('pageCues', () => {
  it('finds a password field and the title in attacker-sized HTML in bounded time', () => {
    assert.equal(hasPasswordField('<form><input name="p" type="password"></form>'), true);
    assert.equal(hasPasswordField('<input type="text" placeholder="password">'), false);
    assert.equal(titleOf('<title> PayPal &amp; you </title>'), 'PayPal & you');
    assert.equal(textOf('<p>a</p><script>var x="<b>";</script><style>p{}</style>b'), 'a b');
    // Unclosed blocks and tags: the answer, not a hang, is what is asserted.
    assert.equal(textOf(`x${'<script>'.repeat(20_000)}`), 'x');
    assert.equal(hasPasswordField('<input '.repeat(30_000)), false);
  });
});
