// Scan jobs over HTTP: async and bulk submission, the worker (run once per test, never by sleeping), reads and lists.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT_DIR } from '../../core/config.ts';
import { runDueJobs } from '../../core/services/jobs/worker.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const SITES = path.join(ROOT_DIR, '..', 'shared', 'eval', 'phishing', 'sites');

describe('scan jobs', () => {
  let t: TestServer;
  let key: string;
  before(async () => {
    t = await startTestServer({ labSitesDir: SITES });
    key = await t.key('jobs-ws');
  });
  after(() => t.close());

  it('POST /scan_async queues a job that the worker takes to done with the result', async () => {
    const res = await t.request('POST', '/scan_async', { key, body: { domain: 'parcel-redelivery-center.com' } });
    assert.equal(res.status, 202);
    assert.deepEqual(Object.keys(res.body).sort(), ['scan_id', 'status']);
    assert.equal(res.body.status, 'queued');
    assert.ok(Number.isInteger(res.body.scan_id));
    const queued = await t.request('GET', `/scan/jobs/${res.body.scan_id}`, { key });
    assert.deepEqual(queued.body, { scan_id: res.body.scan_id, status: 'queued' });

    await runDueJobs(t.app, { browser: false });

    for (const path of [`/scan/jobs/${res.body.scan_id}`, `/scan_status/${res.body.scan_id}`]) {
      const done = await t.request('GET', path, { key });
      assert.equal(done.status, 200);
      assert.equal(done.body.status, 'done');
      assert.equal(done.body.result.domain, 'parcel-redelivery-center.com');
      assert.ok(['high', 'critical'].includes(done.body.result.risk_level));
      assert.equal(typeof done.body.result.score, 'number');
      assert.ok(done.body.result.flags.includes('content:parcel_shipping_lure'));
      assert.equal('error' in done.body, false);
    }
  });

  it('a name that does not exist ends failed with a reason, without retries', async () => {
    const res = await t.request('POST', '/scan_async', { key, body: { domain: 'no-such-host-anywhere.example' } });
    await runDueJobs(t.app, { browser: false });
    const job = await t.request('GET', `/scan/jobs/${res.body.scan_id}`, { key });
    assert.equal(job.body.status, 'failed');
    assert.match(job.body.error, /^nxdomain: /);
    assert.equal('result' in job.body, false);
    const row = await t.knex('scan_jobs').where({ id: res.body.scan_id }).first('attempts');
    assert.equal(row.attempts, 1);
  });

  it('POST /scan/bulk of 60 with duplicates and junk gives the exact jobs, errors and summary', async () => {
    const bulkKey = await t.key('bulk-ws');
    const unique = Array.from({ length: 38 }, (_, i) => `site-${i}.bulk-test.example`);
    const domains: unknown[] = [...unique.slice(0, 30)];
    domains.push('SITE-0.bulk-test.example', 'https://site-1.bulk-test.example/', 'site-2.bulk-test.example');
    domains.push('not a domain', 42, '', 'localhost', 'ftp://x.example', 'intranet');
    domains.push(
      ...unique.slice(30),
      'site-3.bulk-test.example',
      'site-4.bulk-test.example',
      'site-5.bulk-test.example',
    );
    assert.equal(domains.length, 50);
    const overflow = Array.from({ length: 10 }, (_, i) => `late-${i}.bulk-test.example`);
    domains.push(...overflow);

    const res = await t.request('POST', '/scan/bulk', { key: bulkKey, body: { domains } });
    assert.equal(res.status, 202);
    assert.deepEqual(res.body.summary, { accepted: 38, rejected: 22, duplicates: 6, limit: 50 });
    assert.equal(res.body.jobs.length, 38);
    assert.deepEqual(
      res.body.jobs.map((j: { domain: string }) => j.domain),
      unique,
    );
    for (const j of res.body.jobs) {
      assert.deepEqual(Object.keys(j).sort(), ['domain', 'queued', 'scan_id', 'status']);
      assert.equal(j.status, 'queued');
      assert.equal(j.queued, true);
    }
    const byError = (prefix: string) => res.body.errors.filter((e: { error: string }) => e.error.startsWith(prefix));
    assert.equal(byError('duplicate_in_request').length, 6);
    assert.deepEqual(
      byError('duplicate_in_request').map((e: { input: string }) => e.input),
      [
        'SITE-0.bulk-test.example',
        'https://site-1.bulk-test.example/',
        'site-2.bulk-test.example',
        'site-3.bulk-test.example',
        'site-4.bulk-test.example',
        'site-5.bulk-test.example',
      ],
    );
    assert.deepEqual(
      byError('invalid_domain').map((e: { input: unknown }) => e.input),
      ['not a domain', 42, '', 'localhost', 'ftp://x.example', 'intranet'],
    );
    assert.deepEqual(
      byError('over_bulk_limit').map((e: { input: string }) => e.input),
      overflow,
    );
    // Every returned job can be tracked.
    const one = await t.request('GET', `/scan/jobs/${res.body.jobs[5].scan_id}`, { key: bulkKey });
    assert.equal(one.body.status, 'queued');
  });

  it('bulk answers a cached domain without queueing (queued: false)', async () => {
    const k = await t.key('cache-ws');
    await t.request('POST', '/v1/scan', { key: k, body: { domain: 'northwind-outfitters.com' } });
    const res = await t.request('POST', '/scan/bulk', { key: k, body: { domains: ['northwind-outfitters.com'] } });
    assert.equal(res.body.jobs[0].queued, false);
    assert.equal(res.body.jobs[0].status, 'done');
    const job = await t.request('GET', `/scan/jobs/${res.body.jobs[0].scan_id}`, { key: k });
    assert.equal(job.body.result.domain, 'northwind-outfitters.com');
  });

  it('400 for an empty or malformed bulk payload; 402 for a force scan the plan disables', async () => {
    assert.equal((await t.request('POST', '/scan/bulk', { key, body: { domains: [] } })).status, 400);
    assert.equal((await t.request('POST', '/scan/bulk', { key, body: {} })).status, 400);
    assert.equal((await t.request('POST', '/scan/bulk', { key, body: { domains: 'a.example' } })).status, 400);
    const forced = await t.request('POST', '/scan/bulk', { key, body: { domains: ['a.example'], force_scan: true } });
    assert.equal(forced.status, 402);
    const async = await t.request('POST', '/scan_async', { key, body: { domain: 'a.example', force_scan: true } });
    assert.equal(async.status, 402);
  });

  it('bulk admits what the daily quota still allows and refuses the rest with quota_exceeded', async () => {
    const k = await t.key('bulk-quota');
    const ws = await t.knex('workspaces').where({ name: 'bulk-quota' }).first('id');
    await t
      .knex('quota_usage')
      .insert({ workspace_id: ws.id, kind: 'scan', day: t.knex.raw(`(now() at time zone 'utc')::date`), used: 98 });
    const res = await t.request('POST', '/scan/bulk', {
      key: k,
      body: {
        domains: ['q1.quota-test.example', 'q2.quota-test.example', 'q3.quota-test.example', 'q4.quota-test.example'],
      },
    });
    assert.equal(res.status, 202);
    assert.deepEqual(res.body.summary, { accepted: 2, rejected: 2, duplicates: 0, limit: 50 });
    assert.deepEqual(res.body.errors, [
      { input: 'q3.quota-test.example', error: 'quota_exceeded' },
      { input: 'q4.quota-test.example', error: 'quota_exceeded' },
    ]);
    const used = await t.knex('quota_usage').where({ workspace_id: ws.id, kind: 'scan' }).first('used');
    assert.equal(used.used, 100);
    const single = await t.request('POST', '/scan_async', { key: k, body: { domain: 'q5.quota-test.example' } });
    assert.equal(single.status, 429);
  });

  it('GET /scan/jobs filters and counts agree with the rows', async () => {
    const k = await t.key('list-ws');
    const bulk = await t.request('POST', '/scan/bulk', {
      key: k,
      body: { domains: ['harborviewcu.org', 'swiftparcel-tracking.com', 'missing-one.example', 'missing-two.example'] },
    });
    assert.equal(bulk.body.summary.accepted, 4);
    await runDueJobs(t.app, { browser: false });

    const all = await t.request('GET', '/scan/jobs?limit=200', { key: k });
    assert.equal(all.status, 200);
    assert.equal(all.body.meta.limit, 200);
    assert.deepEqual(all.body.meta.counts, { queued: 0, running: 0, done: 2, failed: 2, dead_letter: 0 });
    assert.equal(all.body.jobs.length, 4);
    for (const j of all.body.jobs) {
      for (const f of ['scan_id', 'domain', 'status', 'force_scan', 'queued_at', 'run_duration_ms'])
        assert.ok(f in j, f);
      if (j.status === 'done') {
        assert.equal('domain' in j.result, false, 'the list result omits domain');
        assert.equal(typeof j.result.score, 'number');
      } else assert.match(j.error, /nxdomain/);
      assert.match(j.queued_at, /Z$/);
    }
    const done = await t.request('GET', '/scan/jobs?status=done', { key: k });
    assert.equal(done.body.jobs.length, 2);
    assert.equal(done.body.meta.limit, 25);
    assert.deepEqual(done.body.meta.counts, { queued: 0, running: 0, done: 2, failed: 0, dead_letter: 0 });
    const failedOrDone = await t.request('GET', '/scan/jobs?status=failed,done&limit=3', { key: k });
    assert.equal(failedOrDone.body.jobs.length, 3);
    assert.equal(failedOrDone.body.meta.counts.failed + failedOrDone.body.meta.counts.done, 4);
    const byDomain = await t.request('GET', '/scan/jobs?domain=HarborViewCU.org', { key: k });
    assert.deepEqual(
      byDomain.body.jobs.map((j: { domain: string }) => j.domain),
      ['harborviewcu.org'],
    );
    const forced = await t.request('GET', '/scan/jobs?force_scan=true', { key: k });
    assert.equal(forced.body.jobs.length, 0);
    for (const bad of ['limit=0', 'limit=201', 'limit=x', 'status=finished', 'force_scan=yes', 'sort=asc']) {
      const res = await t.request('GET', `/scan/jobs?${bad}`, { key: k });
      assert.equal(res.status, 400, bad);
    }
  });

  it('jobs are workspace scoped: a foreign id is 404; anonymous jobs are read with their token only', async () => {
    const mine = await t.request('POST', '/scan_async', { key, body: { domain: 'harborviewcu.org' } });
    const other = await t.key('other-ws');
    assert.equal((await t.request('GET', `/scan/jobs/${mine.body.scan_id}`, { key: other })).status, 404);
    assert.equal((await t.request('GET', '/scan/jobs/999999999', { key })).status, 404);
    assert.equal((await t.request('GET', '/scan/jobs/abc', { key })).status, 404);

    const anon = await t.request('POST', '/scan_async', { body: { domain: 'swiftparcel-tracking.com' } });
    assert.equal(anon.status, 202);
    assert.equal(typeof anon.body.access_token, 'string');
    const token = anon.body.access_token;
    const read = await t.request('GET', `/scan_status/${anon.body.scan_id}`, { headers: { 'X-Scan-Token': token } });
    assert.equal(read.status, 200);
    assert.equal(read.body.status, 'queued');
    assert.equal((await t.request('GET', `/scan_status/${anon.body.scan_id}`)).status, 401);
    assert.equal(
      (await t.request('GET', `/scan_status/${anon.body.scan_id}`, { headers: { 'X-Scan-Token': 'wrong' } })).status,
      404,
    );
    assert.equal((await t.request('GET', `/scan_status/${anon.body.scan_id}`, { key })).status, 404);
    assert.equal((await t.request('GET', '/scan/jobs')).status, 401, 'listing needs a key');
  });
});
