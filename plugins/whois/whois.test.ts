import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RdapDomain } from '../../core/evidence/sources/rdap-client.ts';
import { type ScanLab, startScanLab } from '../../test/support/scan-lab.ts';
import { DEFAULT_WHOIS_CONFIG } from './config.ts';
import whois from './index.ts';
import { registrationFindings, summariseRegistration } from './registration-age.ts';

const rdap = (age_days?: number): RdapDomain => ({
  domain: 'example.com',
  ...(age_days === undefined ? {} : { age_days, registered: '2024-01-01T00:00:00Z' }),
  registrar: 'Example Registrar',
  status: [],
  nameservers: [],
  source_url: 'https://rdap.example/domain/example.com',
});
const flagsFor = (age?: number) => registrationFindings(rdap(age), DEFAULT_WHOIS_CONFIG).map((f) => f.flag);

describe('registrationFindings', () => {
  it('raises both flags up to and including day 7', () => {
    for (const age of [0, 7]) {
      assert.deepEqual(flagsFor(age), ['whois:very_recent_registration', 'whois:ultra_recent_registration']);
    }
  });

  it('raises only the 60-day flag from day 8 to day 60', () => {
    for (const age of [8, 60]) assert.deepEqual(flagsFor(age), ['whois:very_recent_registration']);
  });

  it('is silent from day 61 and when the registration date is unknown', () => {
    assert.deepEqual(flagsFor(61), []);
    assert.deepEqual(flagsFor(undefined), []);
  });

  it('follows tuned thresholds', () => {
    const findings = registrationFindings(rdap(20), { veryRecentMaxDays: 30, ultraRecentMaxDays: 20 });
    assert.equal(findings.length, 2);
  });

  it('summarises without inventing a date', () => {
    assert.deepEqual(summariseRegistration(rdap()), {
      registrar: 'Example Registrar',
      source_url: 'https://rdap.example/domain/example.com',
    });
  });
});

describe('whois on the lab', () => {
  let lab: ScanLab;
  before(async () => {
    lab = await startScanLab();
  });
  after(() => lab.close());

  const scan = (site: string) => lab.detect(whois.create({ deps: {}, config: whois.meta.defaultConfig! }), site);

  // The fixture tables run in test/contract/plugins.test.ts, through the whole scan pipeline.

  it('reports the age and registration under the whois paths', async () => {
    const { data } = await scan('fresh-registration-8d.com');
    assert.equal(data!['whois.age_days'], 8);
    const registration = data!['whois.data.registration'] as Record<string, unknown>;
    assert.equal(registration.age_days, 8);
    assert.equal(registration.registrar, 'Preflight Lab Registrar, Inc.');
    assert.match(String(registration.source_url), /domain\/fresh-registration-8d\.com$/);
  });

  it('omits every field when there is no registration to read', async () => {
    const output = await scan('203.0.113.45');
    assert.deepEqual(output, { findings: [] });
  });
});
