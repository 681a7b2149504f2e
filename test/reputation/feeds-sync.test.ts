// `feeds sync` against the lab serving feed files: the guarded fetch, idempotent import, status rows, conditional
// re-pulls, errors per feed, the SSRF guard, the graphile-worker task, and config validation.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseCronItems, quickAddJob } from 'graphile-worker';
import { type FeedsConfig, FeedsConfigError, loadFeedsConfig } from '../../core/evidence/reputation/feed-config.ts';
import { feedStatus, syncFeeds } from '../../core/evidence/reputation/feed-sync.ts';
import { ReputationService } from '../../core/evidence/reputation/reputation-service.ts';
import { CRON_ITEMS, runDueJobs } from '../../core/services/jobs/worker.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const HOST = 'feeds.lab-cert.example';
const dir = mkdtempSync(path.join(os.tmpdir(), 'preflight-feeds-'));
const sites = path.join(dir, 'sites');
mkdirSync(path.join(sites, HOST), { recursive: true });
writeFileSync(path.join(sites, HOST, 'index.html'), '<p>feeds</p>');
writeFileSync(
  path.join(sites, HOST, 'phish.txt'),
  '# lab phishing feed\nhttps://account-verify.lab-phish.example/login\nwallet-restore.lab-phish.example\nnot a host!\n',
);
writeFileSync(
  path.join(sites, HOST, 'phishtank.csv'),
  'phish_id,url,phish_detail_url,submission_time,verified,verification_time,online,target\n' +
    '1,https://secure-bank.lab-phish.example/signin,x,2026-11-20,yes,2026-11-20,yes,Other\n',
);
writeFileSync(path.join(sites, HOST, 'cert-list.csv'), 'domain,category\nparcel-fee.lab-phish.example,phishing\n');
writeFileSync(
  path.join(sites, HOST, 'site.json'),
  JSON.stringify({ redirects: { '/moved.txt': { to: `https://${HOST}/phish.txt`, status: 301 } } }),
);

const config: FeedsConfig = {
  feeds: [
    { name: 'lab-plain', url: `https://${HOST}/phish.txt`, format: 'plain' },
    { name: 'lab-moved', url: `https://${HOST}/moved.txt`, format: 'openphish', interval_minutes: 30 },
    { name: 'lab-phishtank', url: `https://${HOST}/phishtank.csv`, format: 'phishtank' },
    { name: 'lab-cert', url: `https://${HOST}/cert-list.csv`, format: 'cert_csv' },
    { name: 'lab-missing', url: `https://${HOST}/gone.txt`, format: 'plain' },
  ],
};

describe('feeds sync', () => {
  let t: TestServer;
  const deps = () => ({
    knex: t.knex,
    dispatcher: t.app.sources.dispatchers.feeds,
    onChanged: () => t.app.container.resolve(ReputationService).invalidate(),
  });
  before(async () => {
    t = await startTestServer({ labSitesDir: sites });
  });
  after(() => t.close());

  it('pulls every feed through the guarded fetcher, imports it and records its status', async () => {
    const results = await syncFeeds(config, deps());
    const by = Object.fromEntries(results.map((r) => [r.name, r]));
    assert.deepEqual(
      { status: by['lab-plain']?.status, entries: by['lab-plain']?.entries, rejected: by['lab-plain']?.rejected },
      { status: 'ok', entries: 2, rejected: 1 },
    );
    assert.equal(by['lab-moved']?.status, 'ok', 'a redirect is followed (and checked again)');
    assert.equal(by['lab-phishtank']?.inserted, 1);
    assert.equal(by['lab-cert']?.inserted, 1);
    assert.equal(by['lab-missing']?.status, 'error');
    assert.match(by['lab-missing']?.error ?? '', /HTTP 404/);

    const rows = await t.knex('threat_feed_entries').where('source', 'like', 'feed:%').orderBy('value');
    assert.deepEqual(
      rows.filter((r) => r.source === 'feed:lab-plain').map((r) => [r.kind, r.value]),
      [
        ['url', 'https://account-verify.lab-phish.example/login'],
        ['host', 'wallet-restore.lab-phish.example'],
      ],
    );
    const status = Object.fromEntries((await feedStatus(t.knex)).map((r) => [r.name, r]));
    assert.equal(status['lab-plain']?.status, 'ok');
    assert.equal(status['lab-plain']?.runs, 1);
    assert.equal(status['lab-missing']?.status, 'error');
    assert.equal(status['lab-missing']?.consecutive_failures, 1);

    // The fast check now blocks what the feed lists.
    const key = await t.key('feeds');
    const res = await t.request('POST', '/agent/check-action', {
      key,
      body: { url: 'https://wallet-restore.lab-phish.example/anything' },
    });
    assert.equal(res.body.agent_decision, 'block');
    assert.ok(res.body.reasons.some((r: string) => r.includes('threat feed feed:lab-plain')));
  });

  it('is idempotent: a re-pull of the same body imports nothing and says so', async () => {
    const before = await t.knex('threat_feed_entries').count<{ count: string }[]>('* as count');
    const results = await syncFeeds(config, deps(), { force: true, only: 'lab-plain' });
    assert.ok(['unchanged', 'not_modified'].includes(results[0]!.status), results[0]!.status);
    const afterCount = await t.knex('threat_feed_entries').count<{ count: string }[]>('* as count');
    assert.equal(afterCount[0]!.count, before[0]!.count);
    const row = await t.knex('feed_sync_status').where({ name: 'lab-plain' }).first();
    assert.equal(row.runs, 2);
  });

  it('waits for a feed’s interval unless forced, but retries a failing feed on the next tick', async () => {
    const results = await syncFeeds(config, deps());
    const by = Object.fromEntries(results.map((r) => [r.name, r.status]));
    assert.equal(by['lab-moved'], 'not_due');
    assert.equal(by['lab-missing'], 'error');
    const row = await t.knex('feed_sync_status').where({ name: 'lab-missing' }).first();
    assert.equal(row.consecutive_failures, 2);
  });

  it('never fetches a loopback or private address, however the feed URL spells it', async () => {
    for (const url of ['http://127.0.0.1:9/feed.txt', 'http://2130706433/feed.txt', 'http://[::ffff:10.0.0.1]/x']) {
      const [result] = await syncFeeds({ feeds: [{ name: 'ssrf', url, format: 'plain' }] }, deps(), { force: true });
      assert.equal(result!.status, 'error', url);
    }
    const row = await t.knex('feed_sync_status').where({ name: 'ssrf' }).first();
    assert.equal(row.status, 'error');
  });

  it('runs as the graphile-worker task feeds_sync, on the worker’s crontab', async () => {
    const file = path.join(dir, 'feeds.json');
    writeFileSync(
      file,
      JSON.stringify({ feeds: [{ name: 'worker-cert', url: `https://${HOST}/cert-list.csv`, format: 'cert_csv' }] }),
    );
    process.env.PREFLIGHT_FEEDS_CONFIG = file;
    try {
      await quickAddJob({ connectionString: t.databaseUrl }, 'feeds_sync', {});
      await runDueJobs(t.app, { browser: false });
    } finally {
      delete process.env.PREFLIGHT_FEEDS_CONFIG;
    }
    const row = await t.knex('feed_sync_status').where({ name: 'worker-cert' }).first();
    assert.equal(row?.status, 'ok');
    assert.equal(row?.entries, 1);
    const cron = parseCronItems(CRON_ITEMS);
    assert.ok(cron.some((c) => c.task === 'feeds_sync' && c.identifier === 'feeds_sync'));
  });

  it('validates the config file, naming the file and the JSON pointer', () => {
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ feeds: [{ name: 'x', url: 'ftp://a.example/', format: 'plain' }] }));
    assert.throws(
      () => loadFeedsConfig(bad),
      (err: Error) => err instanceof FeedsConfigError && /bad\.json#\/feeds\/0\/url/.test(err.message),
    );
    writeFileSync(bad, JSON.stringify({ feeds: [{ name: 'x', url: 'https://a.example/', format: 'rss' }] }));
    assert.throws(() => loadFeedsConfig(bad), /feeds\/0\/format/);
    writeFileSync(
      bad,
      JSON.stringify({
        feeds: [
          { name: 'x', url: 'https://a.example/', format: 'plain' },
          { name: 'x', url: 'https://b.example/', format: 'plain' },
        ],
      }),
    );
    assert.throws(() => loadFeedsConfig(bad), /duplicate feed name x/);
    assert.deepEqual(loadFeedsConfig(undefined), { feeds: [] });
  });
});
