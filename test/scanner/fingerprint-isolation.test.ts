// Issue 11 item 3: scan fingerprints are "own scan history only". A clone sharing a favicon and an address with a
// site workspace A flagged must not pick up A's history when workspace B or an anonymous caller scans it.

import assert from 'node:assert/strict';
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PostgresScanHistory, withScanHistoryOf } from '../../core/services/scan/scan-history.ts';
import { SHARED_SITES_DIR, writeSites } from '../lab/lab-fixtures.ts';
import { shippedScanHistoryRules } from '../support/catalogs.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const ORIGINAL = 'docview-secure-login.top';
const CLONE = 'docview-secure-signin.top';
const REUSED = 'infrastructure:reused_known_bad_fingerprint';
// A 1x1 PNG served as the favicon of both sites: the shared fingerprint.
const FAVICON = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe('scan history is scoped by workspace', () => {
  let t: TestServer;
  let keyA: string;
  let keyB: string;
  let cleanup: () => Promise<void>;
  const scan = (domain: string, key?: string) =>
    t.request('POST', '/v1/scan', { ...(key ? { key } : {}), body: { domain, force_scan: false } });

  before(async () => {
    const sites = await writeSites({});
    cleanup = sites.cleanup;
    for (const host of [ORIGINAL, CLONE]) {
      await cp(path.join(SHARED_SITES_DIR, ORIGINAL), path.join(sites.dir, host), { recursive: true });
      await writeFile(path.join(sites.dir, host, 'favicon.ico'), FAVICON);
    }
    // The clone names itself (certificate SANs, CT entries) and sits on its own address, so the external sources
    // (host intel lists every name on an address) never mention the original: only scan history could link them.
    const cloneJson = path.join(sites.dir, CLONE, 'site.json');
    const json = JSON.parse((await readFile(cloneJson, 'utf8')).replaceAll(ORIGINAL, CLONE));
    await writeFile(cloneJson, JSON.stringify({ ...json, ip: '203.0.113.78' }));
    t = await startTestServer({ labSitesDir: sites.dir });
    keyA = await t.key('workspace-a');
    keyB = await t.key('workspace-b');
  });
  after(async () => {
    await t.close();
    await cleanup();
  });

  it('B and anonymous callers do not see A’s flagged host; A does', async () => {
    const original = await scan(ORIGINAL, keyA);
    assert.equal(original.status, 200, JSON.stringify(original.body).slice(0, 300));
    assert.ok(['high', 'critical'].includes(original.body.risk_level), original.body.risk_level);
    assert.ok(original.body.detailed_results, 'scanned');

    for (const [who, key] of [
      ['workspace B', keyB],
      ['anonymous', undefined],
    ] as const) {
      const res = await scan(CLONE, key);
      assert.equal(res.status, 200, `${who}: ${JSON.stringify(res.body).slice(0, 300)}`);
      assert.ok(!res.body.flags.includes(REUSED), `${who} got ${REUSED} from A's history`);
      assert.ok(!JSON.stringify(res.body).includes(ORIGINAL), `${who} sees A's host ${ORIGINAL} in its result`);
    }

    // The positive control: the same clone, scanned by A, is linked to A's own flagged scan.
    const own = await scan(CLONE, keyA);
    assert.equal(own.status, 200);
    assert.ok(own.body.flags.includes(REUSED), `A's own history: ${own.body.flags}`);
    assert.ok(JSON.stringify(own.body.detailed_results).includes(ORIGINAL));
  });

  it('the history store answers each bucket with its own rows only', async () => {
    const history = new PostgresScanHistory(t.knex, shippedScanHistoryRules());
    const [a, b] = await Promise.all(
      ['workspace-a', 'workspace-b'].map(async (name) => (await t.knex('workspaces').where({ name }).first('id')).id),
    );
    const fp = { favicon_hash: 'shared-hash-123' };
    await history.record({ host: 'a.example', risk_level: 'critical', flags: [], workspace_id: a }, fp);
    await history.record({ host: 'b.example', risk_level: 'critical', flags: [], workspace_id: b }, fp);
    await history.record({ host: 'anon.example', risk_level: 'high', flags: [], workspace_id: null }, fp);
    const hosts = async (ws: string | null) =>
      (await withScanHistoryOf(ws, () => history.flaggedWithFingerprint('favicon_hash', 'shared-hash-123', 'x')))
        .map((m) => m.host)
        .sort();
    assert.deepEqual(await hosts(a), ['a.example']);
    assert.deepEqual(await hosts(b), ['b.example']);
    assert.deepEqual(await hosts(null), ['anon.example']);
    // Outside any scan scope the store falls back to the anonymous bucket, never to every tenant's rows.
    assert.deepEqual(
      (await history.flaggedWithFingerprint('favicon_hash', 'shared-hash-123', 'x')).map((m) => m.host),
      ['anon.example'],
    );
  });
});
