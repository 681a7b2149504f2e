import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseTarget } from '../../core/engine/url/target.ts';
import { importFeedEntries, parseFeed } from '../../core/evidence/reputation/feed-import.ts';
import { ReputationService } from '../../core/evidence/reputation/reputation-service.ts';
import { embeddedEnv, runCli } from '../support/processes.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const URLHAUS = `################################################################
# abuse.ch URLhaus Database Dump (CSV - recent URLs only)        #
################################################################
#
# id,dateadded,url,url_status,last_online,threat,tags,urlhaus_link,reporter
"3411111","2026-11-20 10:00:01","http://198.51.100.23/bins/x86","online","2026-11-20 10:00:01","malware_download","elf,mirai","https://urlhaus.abuse.ch/url/3411111/","someone"
"3411112","2026-11-20 10:00:02","https://files.bad-drop.example/invoice.zip","online","2026-11-20 10:00:02","malware_download","zip","https://urlhaus.abuse.ch/url/3411112/","someone"
`;

describe('threat feeds and reputation', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  it('parses the four formats, rejecting junk lines with their line number', () => {
    const plain = parseFeed('# comment\nhttps://a.example/x\nb.example\n\nnot a host!\n', 'plain', 'phishing');
    assert.deepEqual(
      plain.entries.map((e) => [e.kind, e.value, e.category]),
      [
        ['url', 'https://a.example/x', 'phishing'],
        ['host', 'b.example', 'phishing'],
      ],
    );
    assert.deepEqual(
      plain.rejected.map((r) => r.line),
      [5],
    );
    const openphish = parseFeed('https://login.x.example/a?b=1#frag\n', 'openphish', 'phishing');
    assert.equal(openphish.entries[0]?.value, 'https://login.x.example/a?b=1');
    const csv = parseFeed('Domain,Category\nc.example,scam\n"d.example",\n', 'csv', 'phishing');
    assert.deepEqual(
      csv.entries.map((e) => [e.host, e.category]),
      [
        ['c.example', 'scam'],
        ['d.example', 'phishing'],
      ],
    );
    assert.throws(() => parseFeed('name\nx\n', 'csv', 'phishing'), /needs one of the columns/);
    const urlhaus = parseFeed(URLHAUS, 'urlhaus', 'malware');
    assert.deepEqual(
      urlhaus.entries.map((e) => [e.host, e.category]),
      [
        ['198.51.100.23', 'malware_download'],
        ['files.bad-drop.example', 'malware_download'],
      ],
    );
  });

  it('imports idempotently: the second import inserts nothing and only touches last_seen', async () => {
    const feed = parseFeed(URLHAUS, 'urlhaus', 'malware');
    assert.deepEqual(await importFeedEntries(t.knex, feed.entries, 'urlhaus'), { inserted: 2, updated: 0 });
    assert.deepEqual(await importFeedEntries(t.knex, feed.entries, 'urlhaus'), { inserted: 0, updated: 2 });
    assert.equal(Number((await t.knex('threat_feed_entries').count('* as n').first())?.n), 2);
  });

  it('scores the tenant, never the platform; a known-good site needs the exact URL listed', async () => {
    const rep = t.app.container.resolve(ReputationService);
    await importFeedEntries(
      t.knex,
      parseFeed('evil-tenant.vercel.app\nhttps://www.paypal.com/phish-page\n', 'plain', 'phishing').entries,
      'unit',
    );
    rep.invalidate();
    assert.equal((await rep.lookup(parseTarget('https://evil-tenant.vercel.app/'), 2000)).feedHits.length, 1);
    assert.equal((await rep.lookup(parseTarget('https://good-tenant.vercel.app/'), 2000)).feedHits.length, 0);
    const paypalPage = await rep.lookup(parseTarget('https://www.paypal.com/phish-page'), 2000);
    assert.equal(paypalPage.knownGood, true);
    assert.equal(paypalPage.feedHits.length, 1);
    assert.equal((await rep.lookup(parseTarget('https://www.paypal.com/'), 2000)).feedHits.length, 0);
    const tenantOfKnownPlatform = await rep.lookup(parseTarget('https://someone.github.io/'), 2000);
    assert.equal(tenantOfKnownPlatform.knownGood, false);
  });

  it('answers within its budget from the URL alone when the database is too slow', async () => {
    const rep = t.app.container.resolve(ReputationService);
    // Hold the table lock from another session: the lookup query waits behind it.
    const trx = await t.knex.transaction();
    await trx.raw('lock table threat_feed_entries in access exclusive mode');
    try {
      // A deadline, not a benchmark: the spec promises a fast check in under two seconds whatever the database does.
      const started = performance.now();
      const result = await rep.lookup(parseTarget('https://never-cached.example/'), 100);
      assert.ok(performance.now() - started < 2000);
      assert.equal(result.available, false);
      assert.match(result.warning ?? '', /budget/);
    } finally {
      await trx.rollback();
    }
  });

  it('npx preflight feeds import is idempotent and feeds the known-good list too', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'preflight-feed-'));
    const file = path.join(dir, 'openphish.txt');
    writeFileSync(file, 'https://cli-phish.example/login\nhttps://cli-phish.example/verify\n');
    const env = { ...embeddedEnv(dir), DATABASE_URL: t.databaseUrl };
    const first = await runCli(['feeds', 'import', file, '--format', 'openphish'], env);
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(JSON.parse(first.stdout), { inserted: 2, updated: 0, rejected: 0 });
    const again = await runCli(['feeds', 'import', file, '--format', 'openphish'], env);
    assert.deepEqual(JSON.parse(again.stdout), { inserted: 0, updated: 2, rejected: 0 });
    const good = path.join(dir, 'good.txt');
    writeFileSync(good, 'intranet.acme-corp.example\nwww.acme-corp.example\n');
    const kg = await runCli(['feeds', 'import', good, '--known-good', '--source', 'acme'], env);
    assert.deepEqual(JSON.parse(kg.stdout), { known_good_added: 1, rejected: 0 });
    const bad = await runCli(['feeds', 'import', good, '--format', 'xml'], env);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /--format must be one of/);
  });
});
