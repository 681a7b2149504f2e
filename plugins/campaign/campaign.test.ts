import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fired, openScanRig, type ScanRig, scanCases } from '../../test/support/scan-fixture-rig.ts';
import campaign from './index.ts';

// Fixture cases this file reuses for config-specific checks (the tables themselves run in the contract test).
const cases = scanCases(new URL('./fixtures.json', import.meta.url));

describe('campaign plugin', () => {
  let rig: ScanRig;
  const detector = (config = campaign.meta.defaultConfig!) =>
    campaign.create({ deps: { history: rig.history, ...rig.catalogs }, config });
  before(async () => {
    rig = await openScanRig();
  });
  after(async () => {
    await rig.close();
  });

  // The fixture tables run in test/contract/plugins.test.ts, through the whole scan pipeline.

  it('reports what it shares with whom under campaign.data', async () => {
    const evidence = await rig.collect('wrenfield-pay-01.com');
    await rig.history.record(
      { host: 'wrenfield-data-a.example', risk_level: 'high', flags: [] },
      { ip: '192.0.2.231' },
    );
    const out = await detector().detect({
      surface: 'scan',
      evidence,
      target: evidence.target,
      signal: AbortSignal.timeout(5_000),
    });
    const data = out.data?.['campaign.data'] as {
      related_hosts: string[];
      active_hosts: string[];
      shared: { kind: string; value: string; hosts: string[] }[];
    };
    assert.ok(data.related_hosts.includes('wrenfield-data-a.example'));
    assert.ok(
      data.related_hosts.every((h) => h !== 'wrenfield-pay-01.com'),
      'the host under test is excluded',
    );
    assert.deepEqual(
      data.shared.map((s) => [s.kind, s.value]),
      [['ip', '192.0.2.231']],
    );
    assert.deepEqual(data.active_hosts, []);
  });

  it('counts only recent flagged hosts towards an active cluster', async () => {
    const evidence = await rig.collect('wrenfield-archive.com');
    const cert = evidence.tls.ok ? evidence.tls.value.fingerprint_sha256 : assert.fail('no certificate');
    const old = new Date(Date.now() - 20 * 86_400_000);
    const rows = ['old-1', 'old-2', 'old-3'].map((h) => ({
      kind: 'cert_sha256',
      value: cert,
      host: `wrenfield-${h}.example`,
      risk_level: 'high',
      flags: [],
      seen_at: old,
    }));
    await rig.knex('fingerprints_seen').insert(rows);
    const out = await detector().detect({
      surface: 'scan',
      evidence,
      target: evidence.target,
      signal: AbortSignal.timeout(5_000),
    });
    assert.ok(fired(out, 'campaign:autonomous.related'));
    assert.ok(!fired(out, 'campaign:autonomous.active'), 'three hosts seen 20 days ago are not an active campaign');
    const wide = detector({ ...campaign.meta.defaultConfig!, activeWindowDays: 30 });
    const widened = await wide.detect({
      surface: 'scan',
      evidence,
      target: evidence.target,
      signal: AbortSignal.timeout(5_000),
    });
    assert.ok(fired(widened, 'campaign:autonomous.active'), 'a 30-day window takes them in');
  });

  it('needs the configured number of hosts for an active cluster', async () => {
    const c = cases.invalid.find((x) => x.input.site === 'wrenfield-pay-02.com')!;
    const { output } = await rig.run(c, detector({ ...campaign.meta.defaultConfig!, activeMinHosts: 4 }));
    assert.ok(fired(output, 'campaign:autonomous.related'));
    assert.ok(!fired(output, 'campaign:autonomous.active'));
  });

  it('stays silent without scan evidence', async () => {
    const out = await detector().detect({ surface: 'scan', signal: AbortSignal.timeout(5_000) });
    assert.deepEqual(out, { findings: [] });
  });
});
