import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseTarget } from '../../core/engine/url/target.ts';
import type { CtClient, CtEntry } from '../../core/evidence/sources/ct-client.ts';
import { failed, found } from '../../core/evidence/sources/lookup.ts';
import type { ScanEvidence } from '../../core/services/scan/evidence.ts';
import { type ScanLab, startScanLab } from '../../test/support/scan-lab.ts';
import { DEFAULT_CT_CONFIG } from './config.ts';
import { ctAges, isFreshlyIssued, isNewFootprint, issuersOf } from './footprint.ts';
import ct from './index.ts';
import { siblingDomains } from './sibling-domains.ts';

let nextId = 1;
const entry = (age_days: number, issuer = 'R11', names = ['example.com']): CtEntry => ({
  id: nextId++,
  issuer_name: `C=US, O=Let's Encrypt, CN=${issuer}`,
  issuer_common_name: issuer,
  common_name: names[0]!,
  names,
  entry_timestamp: '2025-01-01T00:00:00Z',
  not_before: '2025-01-01T00:00:00Z',
  not_after: '2025-04-01T00:00:00Z',
  serial_number: '01',
  age_days,
});

describe('footprint', () => {
  const newFootprint = (...ages: number[]) => isNewFootprint(ctAges(ages.map((a) => entry(a))), DEFAULT_CT_CONFIG);
  const fresh = (...ages: number[]) => isFreshlyIssued(ctAges(ages.map((a) => entry(a))), DEFAULT_CT_CONFIG);

  it('is new only when every certificate is at most 30 days old', () => {
    assert.equal(newFootprint(1), true);
    assert.equal(newFootprint(3, 30), true);
    assert.equal(newFootprint(3, 31), false);
    assert.equal(newFootprint(), false, 'no entries is no evidence');
  });

  it('is fresh when the newest certificate is at most 7 days old', () => {
    assert.equal(fresh(7, 400), true);
    assert.equal(fresh(8, 9), false);
    assert.equal(fresh(), false);
  });

  it('lists issuers once, newest first', () => {
    assert.deepEqual(issuersOf([entry(1, 'R11'), entry(90, 'R10'), entry(180, 'R11')]), ['R11', 'R10']);
  });
});

describe('siblingDomains', () => {
  it('keeps other names and drops the host, its www twin and wildcards covering it', () => {
    const names = ['Shop.Example.com', 'www.shop.example.com', '*.example.com', 'pay-example-login.com', '*.other.net'];
    assert.deepEqual(siblingDomains(names, 'shop.example.com', 50), ['*.other.net', 'pay-example-login.com']);
  });

  it('counts the bare name as the host when scanning www', () => {
    assert.deepEqual(siblingDomains(['example.com', 'example.net'], 'www.example.com', 50), ['example.net']);
  });

  it('caps the list', () => {
    const names = Array.from({ length: 300 }, (_, i) => `kit-${i}.example`);
    assert.equal(siblingDomains(names, 'host.example', 50).length, 50);
  });
});

describe('ct with a stubbed site search', () => {
  const evidenceFor = (url: string, entries: CtEntry[]) =>
    ({
      target: parseTarget(url),
      ct: found(entries),
      tls: failed('timeout'),
    }) as unknown as ScanEvidence;
  const run = async (client: CtClient, url: string, entries: CtEntry[]) => {
    const evidence = evidenceFor(url, entries);
    const detector = ct.create({ deps: { ct: client }, config: DEFAULT_CT_CONFIG });
    const signal = new AbortController().signal;
    return detector.detect({ surface: 'scan', url, target: evidence.target, evidence, signal });
  };

  it('stays silent on the footprint when the site search fails, and says so', async () => {
    const client: CtClient = { search: async () => failed('timeout') };
    const output = await run(client, 'https://new.example.com/', [entry(3, 'R11', ['new.example.com'])]);
    assert.deepEqual(
      output.findings.map((f) => f.flag),
      ['ct:freshly_issued_certificate'],
    );
    assert.match((output.data!['ssl.data.ct_evidence'] as string[]).join(' '), /could not be searched \(timeout\)/);
  });

  it('does not search again for a host that is its own site', async () => {
    let searched = 0;
    const client: CtClient = {
      search: async () => {
        searched++;
        return found([]);
      },
    };
    await run(client, 'https://tenant.pages.dev/', [entry(3)]);
    await run(client, 'https://example.com/', [entry(3)]);
    assert.equal(searched, 0);
  });

  it('omits every field when the CT source failed', async () => {
    const evidence = {
      target: parseTarget('https://a.example/'),
      ct: failed('unreachable'),
    } as unknown as ScanEvidence;
    const detector = ct.create({ deps: { ct: { search: async () => found([]) } }, config: DEFAULT_CT_CONFIG });
    const out = await detector.detect({ surface: 'scan', evidence, signal: new AbortController().signal });
    assert.deepEqual(out, { findings: [] });
  });
});

describe('ct on the lab', () => {
  let lab: ScanLab;
  before(async () => {
    lab = await startScanLab();
  });
  after(() => lab.close());

  const scan = (site: string) =>
    lab.detect(ct.create({ deps: { ct: lab.sources.ct }, config: ct.meta.defaultConfig! }), site);

  // The fixture tables run in test/contract/plugins.test.ts, through the whole scan pipeline.

  it('summarises the history under ssl.data.ct', async () => {
    const { data } = await scan('renewed-lantern-books.com');
    assert.deepEqual(data!['ssl.data.ct'], {
      entry_count: 2,
      newest_age_days: 2,
      oldest_age_days: 400,
      issuers: ['R11', 'Sectigo RSA Domain Validation Secure Server CA'],
      sibling_domains: ['lantern-books-giftcards.com'],
      has_wildcard: false,
      new_footprint: false,
    });
    assert.ok((data!['ssl.data.ct_evidence'] as string[]).some((l) => l.includes('lantern-books-giftcards.com')));
  });

  it('reads a platform wildcard as a wildcard, not as a sibling', async () => {
    const summary = (await scan('shared-docs-7731.pages.dev')).data!['ssl.data.ct'] as Record<string, unknown>;
    assert.equal(summary.has_wildcard, true);
    assert.deepEqual(summary.sibling_domains, ['pages.dev']);
  });

  it('widens a new subdomain to its registered site', async () => {
    const summary = (await scan('promo.ridgeline-pantry.com')).data!['ssl.data.ct'] as Record<string, unknown>;
    assert.equal(summary.new_footprint, false);
    assert.ok(Number(summary.oldest_age_days) > 300);
  });
});
