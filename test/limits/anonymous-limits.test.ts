// Issue 11 item 7: anonymous callers are held to the anonymous plan, do not see each other through the scan cache,
// cannot use the scanner to learn what names resolve to inside the network, and deep checks take scan targets only.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig, ROOT_DIR } from '../../core/config.ts';
import { canonicalJson, sha256Hex } from '../../core/engine/contract/canonical-json.ts';
import { purgePastAnonymousQuota } from '../../core/services/workspaces/quotas.ts';
import { type Lab, startLab } from '../../lab/index.ts';
import { writeSites } from '../lab/lab-fixtures.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const SITES = path.join(ROOT_DIR, '..', 'shared', 'eval', 'phishing', 'sites');
const ANONYMOUS_QUOTA: number = JSON.parse(readFileSync(path.join(ROOT_DIR, 'rules', 'plans.json'), 'utf8')).anonymous
  .scan_quota_daily;

describe('anonymous daily scan quota', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ worker: 'off', bulkScanLimit: ANONYMOUS_QUOTA });
  });
  after(() => t.close());

  it('the hourly retention drops counters of past days and keeps today’s', async () => {
    await t.knex('anonymous_quota_usage').insert([
      { bucket: 'ip:198.51.100.7', kind: 'scan', day: t.knex.raw(`(now() at time zone 'utc')::date - 1`), used: 3 },
      { bucket: 'ip:198.51.100.7', kind: 'scan', day: t.knex.raw(`(now() at time zone 'utc')::date`), used: 2 },
    ]);
    assert.equal(await purgePastAnonymousQuota(t.knex), 1);
    const left = await t.knex('anonymous_quota_usage').where({ bucket: 'ip:198.51.100.7' }).select('used');
    assert.deepEqual(left, [{ used: 2 }]);
    await t.knex('anonymous_quota_usage').where({ bucket: 'ip:198.51.100.7' }).delete();
  });

  it('bulk, async and sync scans share the anonymous quota; past it they are refused', async () => {
    const domains = (prefix: string) => Array.from({ length: ANONYMOUS_QUOTA }, (_, i) => `${prefix}-${i}.com`);
    const first = await t.request('POST', '/scan/bulk', { body: { domains: domains('first') } });
    assert.equal(first.status, 202, JSON.stringify(first.body).slice(0, 300));
    assert.equal(first.body.summary.accepted, ANONYMOUS_QUOTA);

    const second = await t.request('POST', '/scan/bulk', { body: { domains: domains('second') } });
    assert.equal(second.status, 202);
    assert.equal(second.body.summary.accepted, 0, 'the anonymous quota is spent');
    assert.ok(second.body.errors.every((e: { error: string }) => e.error === 'quota_exceeded'));

    const single = await t.request('POST', '/scan_async', { body: { domain: 'third.com' } });
    assert.equal(single.status, 429);
    assert.equal(single.body.error, 'quota_exceeded');
    assert.equal(single.body.details.limit, ANONYMOUS_QUOTA);

    const sync = await t.request('POST', '/v1/scan', { body: { domain: 'fourth.com' } });
    assert.equal(sync.status, 429);
    assert.equal(sync.body.error, 'quota_exceeded');

    // A workspace is not affected by the anonymous bucket.
    const key = await t.key('acme');
    const keyed = await t.request('POST', '/scan_async', { key, body: { domain: 'fifth.com' } });
    assert.equal(keyed.status, 202);
  });
});

describe('anonymous scan cache', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ labSitesDir: SITES });
  });
  after(() => t.close());

  it('a cached anonymous answer carries the new caller’s actor and request id, never the earlier caller’s', async () => {
    const alice = await t.request('POST', '/v1/scan', {
      body: { domain: 'northwind-outfitters.com' },
      headers: { 'X-Actor': 'alice@corp-a', 'X-Request-ID': 'req-alice-1' },
    });
    assert.equal(alice.status, 200);
    assert.equal(alice.body.tabs.detection.evidencepack.actor, 'alice@corp-a');

    const bob = await t.request('POST', '/v1/scan', {
      body: { domain: 'northwind-outfitters.com' },
      headers: { 'X-Actor': 'bob@corp-b', 'X-Request-ID': 'req-bob-1' },
    });
    assert.equal(bob.status, 200);
    assert.equal(bob.body.cached, true);
    const text = JSON.stringify(bob.body);
    assert.ok(!text.includes('alice@corp-a'), 'alice’s X-Actor handed to bob');
    assert.ok(!text.includes('req-alice-1'), 'alice’s request id handed to bob');
    const { sha256, ...pack } = bob.body.tabs.detection.evidencepack;
    assert.equal(pack.actor, 'bob@corp-b');
    assert.equal(pack.request_id, 'req-bob-1');
    assert.equal(sha256, sha256Hex(canonicalJson(pack)), 'the pack’s sha256 is over the pack as answered');
  });
});

describe('anonymous scans of names that resolve inside the network', () => {
  let lab: Lab;
  let t: TestServer;
  let cleanup: () => Promise<void>;
  before(async () => {
    // A DNS server that answers a name with a private address, as an internal resolver would.
    const sites = await writeSites({ 'intranet-portal-corp.com': { site: { ip: '10.1.2.3' } } });
    cleanup = sites.cleanup;
    lab = await startLab({ sitesDir: sites.dir });
    const base = loadConfig({ NODE_ENV: 'test' });
    t = await startTestServer({ sources: { ...base.sources, dnsServers: [lab.endpoints.dns], cacheTtlMs: 0 } });
  });
  after(async () => {
    await t.close();
    await lab.close();
    await cleanup();
  });

  it('refuses the scan without disclosing the answer', async () => {
    const res = await t.request('POST', '/v1/scan', { body: { domain: 'intranet-portal-corp.com' } });
    assert.equal(res.status, 400, JSON.stringify(res.body).slice(0, 300));
    assert.ok(!JSON.stringify(res.body).includes('10.1.2.3'));
    assert.match(res.body.message, /public address/);
  });

  it('refuses a private IP literal', async () => {
    const res = await t.request('POST', '/v1/scan', { body: { domain: '10.1.2.3' } });
    assert.equal(res.status, 400);
  });
});

describe('deep action checks take scan targets only', () => {
  let t: TestServer;
  let key: string;
  before(async () => {
    t = await startTestServer({ labSitesDir: SITES });
    key = await t.key('acme');
  });
  after(() => t.close());

  for (const url of ['http://localhost/', 'http://intranet/', 'https://printer/admin', 'http://LOCALHOST.:8080/x']) {
    it(`refuses ${url} like /v1/scan does`, async () => {
      const scan = await t.request('POST', '/v1/scan', { key, body: { domain: url } });
      assert.equal(scan.status, 400);
      const deep = await t.request('POST', '/agent/check-action', { key, body: { url, depth: 'deep' } });
      assert.equal(deep.status, 400, JSON.stringify(deep.body).slice(0, 300));
      const guard = await t.request('POST', '/agent/guardrail', { key, body: { url, depth: 'deep' } });
      assert.equal(guard.status, 400);
    });
  }
});
