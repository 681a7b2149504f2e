import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FetchedHop, FetchResult } from '../../core/evidence/sources/http-fetcher.ts';
import type { TlsFacts } from '../../core/evidence/sources/tls-inspector.ts';
import type { ScanEvidence } from '../../core/services/scan/evidence.ts';
import { type ScanLab, startScanLab } from '../../test/support/scan-lab.ts';
import { certificateFields, recentCertificateFinding } from './certificate.ts';
import { hostContext, hostContextLines } from './host-context.ts';
import { missingHstsFinding } from './hsts.ts';
import ssl from './index.ts';

const tls = (cert_age_days?: number): TlsFacts => ({
  host: 'example.net',
  port: 443,
  address: '192.0.2.1',
  subject_common_name: 'example.net',
  issuer_common_name: 'R11',
  issuer_organization: "Let's Encrypt",
  sans: ['example.net'],
  ...(cert_age_days === undefined ? {} : { cert_age_days, not_before: '2025-01-01T00:00:00.000Z' }),
  fingerprint_sha256: 'ab'.repeat(32),
  chain: [],
  trusted: true,
});

const hop = (url: string, headers: Record<string, string> = {}): FetchedHop => ({
  url,
  kind: 'initial',
  status: 200,
  headers,
  body: '',
  body_truncated: false,
});
const page = (final: FetchedHop, extra: Partial<FetchResult> = {}): FetchResult => ({
  requested_url: final.url,
  final_url: final.url,
  hops: [final],
  final,
  stopped: 'final',
  ...extra,
});

describe('certificate', () => {
  it('fires up to and including day 7, not from day 8, not without a notBefore', () => {
    assert.equal(recentCertificateFinding(tls(0), 7)?.flag, 'ssl:very_recent_certificate');
    assert.equal(recentCertificateFinding(tls(7), 7)?.flag, 'ssl:very_recent_certificate');
    assert.equal(recentCertificateFinding(tls(8), 7), undefined);
    assert.equal(recentCertificateFinding(tls(), 7), undefined);
  });

  it('publishes the spec fields and nothing it does not know', () => {
    assert.deepEqual(certificateFields(tls(3)), {
      issuer_common_name: 'R11',
      issuer_organization: "Let's Encrypt",
      subject_common_name: 'example.net',
      cert_age_days: 3,
    });
    assert.equal('cert_age_days' in certificateFields(tls()), false);
  });
});

describe('missingHstsFinding', () => {
  it('fires for an HTTPS final response without the header or with max-age=0', () => {
    assert.ok(missingHstsFinding(page(hop('https://a.example/')), 1));
    const off = hop('https://a.example/', { 'strict-transport-security': 'max-age=0' });
    assert.ok(missingHstsFinding(page(off, { hsts: { max_age: 0, include_subdomains: false, preload: false } }), 1));
  });

  it('is silent with HSTS, on plain HTTP, and when the chain never reached a final page', () => {
    const hsts = { max_age: 31_536_000, include_subdomains: true, preload: false };
    assert.equal(missingHstsFinding(page(hop('https://a.example/'), { hsts }), 1), undefined);
    assert.equal(missingHstsFinding(page(hop('http://a.example/')), 1), undefined);
    assert.equal(missingHstsFinding(page(hop('https://a.example/'), { stopped: 'loop' }), 1), undefined);
    assert.equal(missingHstsFinding(page(hop('https://a.example/'), { stopped: 'error' }), 1), undefined);
  });
});

describe('hostContext', () => {
  const facts = { ip: '192.0.2.1', org: 'Example Hosting', hostnames: [], domains: [], ports: [443], services: [] };
  const evidence = (hostIntel: ScanEvidence['hostIntel'], tlsOk = true) =>
    ({
      addresses: ['192.0.2.1'],
      tls: tlsOk ? { ok: true, value: tls(3), cached: false } : { ok: false, reason: 'timeout' },
      page: page(hop('https://example.net/')),
      hostIntel,
    }) as unknown as ScanEvidence;

  it('leaves the vendor fields out when no vendor was queried', () => {
    const context = hostContext(
      evidence({ ok: false, reason: 'not_configured', queried_vendor: false, vendor: 'shodan' }),
    );
    assert.deepEqual(context, {
      cert_fingerprint_sha256: 'ab'.repeat(32),
      ip: '192.0.2.1',
      vendor: 'shodan',
      queried_vendor: false,
    });
  });

  it('adds the vendor fields when it was, and drops the fingerprint when TLS failed', () => {
    const queried = { ok: true as const, value: facts, cached: false, queried_vendor: true, vendor: 'shodan' };
    const context = hostContext(evidence(queried, false));
    assert.equal(context.cert_fingerprint_sha256, undefined);
    assert.equal(context.asn_org, 'Example Hosting');
    assert.deepEqual(context.open_ports, [443]);
  });

  it('says why vendor fields are missing', () => {
    const lines = hostContextLines({ vendor: 'shodan', queried_vendor: false, ip: '192.0.2.1' });
    assert.match(lines.join(' '), /not queried/);
  });
});

describe('ssl on the lab', () => {
  let lab: ScanLab;
  before(async () => {
    lab = await startScanLab();
  });
  after(() => lab.close());

  const scan = (site: string) => lab.detect(ssl.create({ deps: {}, config: ssl.meta.defaultConfig! }), site);

  // The fixture tables run in test/contract/plugins.test.ts, through the whole scan pipeline.

  it('reports the certificate and the host context, vendor fields included when queried', async () => {
    const { data } = await scan('parcel-redelivery-center.com');
    assert.deepEqual(data!.ssl, {
      issuer_common_name: 'R11',
      issuer_organization: "Let's Encrypt",
      subject_common_name: 'parcel-redelivery-center.com',
      cert_age_days: 2,
    });
    const context = data!['ssl.data.host_context'] as Record<string, unknown>;
    assert.match(String(context.cert_fingerprint_sha256), /^[0-9a-f]{64}$/);
    assert.equal(context.ip, '203.0.113.88');
    assert.equal(context.vendor, 'shodan');
    assert.equal(context.queried_vendor, true);
    assert.equal(context.asn_org, 'Hostinger');
    assert.ok(Array.isArray(context.open_ports) && context.open_ports.length > 0);
    assert.ok(Array.isArray(context.services));
    const lines = data!['ssl.data.host_context_evidence'] as string[];
    assert.ok(lines.some((l) => l.includes('Hostinger')));
  });
});
