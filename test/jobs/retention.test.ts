import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT_DIR } from '../../core/config.ts';
import { compactOldScans } from '../../core/services/jobs/maintenance.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const SITES = path.join(ROOT_DIR, '..', 'shared', 'eval', 'phishing', 'sites');

describe('retention', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ labSitesDir: SITES });
  });
  after(() => t.close());

  it('compacts superseded scans past the evidence window to the lean payload, keeping the newest in full', async () => {
    const key = await t.key('retention');
    await t.knex('workspaces').where({ name: 'retention' }).update({ plan: 'pro' });
    const scan = async () =>
      (await t.request('POST', '/v1/scan', { key, body: { domain: 'harborviewcu.org', force_scan: true } })).body;
    const older = await scan();
    const newer = await scan();
    const lone = (await t.request('POST', '/v1/scan', { key, body: { domain: 'swiftparcel-tracking.com' } })).body;
    // Everything is now 100 hours old: past a 72 h window.
    await t.knex('scans').update({ created_at: t.knex.raw(`now() - interval '100 hours'`) });

    assert.equal(await compactOldScans(t.knex, 72), 1);
    const rows = await t.knex('scans').orderBy('id').select('id', 'compacted', 'result');
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    const compacted = byId.get(older.scan_id)!;
    assert.equal(compacted.compacted, true);
    assert.deepEqual(Object.keys(compacted.result).sort(), [
      'checks',
      'compacted',
      'domain',
      'evidencepack_id',
      'flags',
      'risk_level',
      'ruleset_hash',
      'scan_id',
      'scanned_at',
      'score',
      'score_breakdown',
      'target_url',
    ]);
    assert.equal(compacted.result.score, older.score);
    assert.deepEqual(compacted.result.flags, older.flags);
    assert.equal(byId.get(newer.scan_id)!.compacted, false, 'the newest scan of a site keeps its full payload');
    assert.equal(byId.get(lone.scan_id)!.compacted, false, 'a site scanned once keeps its full payload');
    // The evidence pack is the audit record: it stays readable.
    const pack = await t.request('GET', `/evidencepacks/${older.tabs.detection.evidencepack.id}`, { key });
    assert.equal(pack.status, 200);
    assert.equal(await compactOldScans(t.knex, 72), 0, 'idempotent');
  });
});
