import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT_DIR } from '../../core/config.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const SITES = path.join(ROOT_DIR, '..', 'shared', 'eval', 'phishing', 'sites');

describe('usage metering: GET /usage and npx preflight usage', () => {
  let t: TestServer;
  let key: string;
  let otherKey: string;

  before(async () => {
    t = await startTestServer({ labSitesDir: SITES });
    key = await t.key('metered');
    otherKey = await t.key('elsewhere');
  });
  after(async () => {
    await t.close();
  });

  it('counts every check per surface and every scan, for the caller’s workspace only', async () => {
    for (let i = 0; i < 3; i++) {
      assert.equal(
        (await t.request('POST', '/agent/check-content', { key, body: { content: `note ${i}` } })).status,
        200,
      );
    }
    for (const url of ['https://example.com/', 'https://example.org/']) {
      assert.equal((await t.request('POST', '/agent/check-action', { key, body: { url } })).status, 200);
    }
    const tool = await t.request('POST', '/agent/guardrail', { key, body: { kind: 'tool_call', tool: 'read_file' } });
    assert.equal(tool.status, 200);
    const scan = await t.request('POST', '/v1/scan', { key, body: { domain: 'northwind-outfitters.com' } });
    assert.equal(scan.status, 200);
    // A check in another workspace is not ours to see.
    await t.request('POST', '/agent/check-content', { key: otherKey, body: { content: 'hello' } });

    const res = await t.request('GET', '/usage', { key });
    assert.equal(res.status, 200);
    const report = res.body;
    assert.equal(report.workspace, 'metered');
    assert.equal(report.period.days, 1);
    assert.deepEqual(report.totals.checks, { agent_action: 2, agent_content: 3, agent_tool_call: 1 });
    assert.equal(report.totals.scans, 1);
    assert.equal(report.days[0].quota.scan, 1);
    assert.equal(report.today.scan_quota_used, 1);
    assert.equal(report.today.scan_quota_remaining, report.limits.scan_quota_daily - 1);
    assert.equal(report.days[0].outcomes.allow + (report.days[0].outcomes.approval_required ?? 0), 6);

    const week = await t.request('GET', '/usage?days=7', { key });
    assert.equal(week.body.days.length, 7);
    assert.deepEqual(week.body.totals.checks, report.totals.checks);
  });

  it('refuses bad parameters with a JSON 400 and callers without a key with 401', async () => {
    for (const q of ['days=0', 'days=93', 'days=1e1', 'days=%201', 'days=2&days=3', 'from=2026-01-01']) {
      const res = await t.request('GET', `/usage?${q}`, { key });
      assert.equal(res.status, 400, q);
      assert.equal(res.body.error, 'invalid_request');
    }
    assert.equal((await t.request('GET', '/usage')).status, 401);
  });

  it('the CLI prints the same counts', () => {
    const out = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        'reflect-metadata',
        path.join(ROOT_DIR, 'cli/index.ts'),
        'usage',
        'metered',
        '--days',
        '2',
        '--json',
      ],
      { env: { ...process.env, DATABASE_URL: t.databaseUrl }, encoding: 'utf8' },
    );
    assert.equal(out.status, 0, out.stderr);
    const report = JSON.parse(out.stdout);
    assert.deepEqual(report.totals.checks, { agent_action: 2, agent_content: 3, agent_tool_call: 1 });
    assert.equal(report.days.length, 2);
  });
});
