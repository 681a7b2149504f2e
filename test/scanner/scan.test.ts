// POST /v1/scan against the lab: every shared eval site gets its label's risk and its expected flags.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT_DIR } from '../../core/config.ts';
import { updateWorkspace } from '../../core/services/workspaces/api-keys.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const SITES = path.join(ROOT_DIR, '..', 'shared', 'eval', 'phishing', 'sites');
const LABELS: Record<string, { label: 'phishing' | 'benign'; expect_flags: string[] }> = JSON.parse(
  readFileSync(path.join(ROOT_DIR, '..', 'shared', 'eval', 'phishing', 'sites.json'), 'utf8'),
);

describe('POST /v1/scan', () => {
  let t: TestServer;
  let key: string;
  const scan = (body: unknown, k = key) => t.request('POST', '/v1/scan', { key: k, body });

  before(async () => {
    t = await startTestServer({ labSitesDir: SITES });
    key = await t.key('acme');
  });
  after(() => t.close());

  describe('the shared eval sites', () => {
    for (const [host, { label, expect_flags }] of Object.entries(LABELS)) {
      it(`${host}: ${label}, with ${expect_flags.join(', ') || 'no expected flags'}`, async () => {
        const res = await scan({ domain: host });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const r = res.body;
        const dangerous = r.risk_level === 'high' || r.risk_level === 'critical';
        assert.equal(
          dangerous,
          label === 'phishing',
          `risk_level ${r.risk_level} (score ${r.score}, flags ${r.flags})`,
        );
        for (const flag of expect_flags) assert.ok(r.flags.includes(flag), `${flag} missing; got ${r.flags}`);
        // The books balance: categories add up to raw_total, reductions are all recorded.
        const b = r.score_breakdown;
        assert.equal(b.reconciles, true);
        assert.equal(
          Object.values(b.categories as Record<string, number>).reduce((x, y) => x + y, 0),
          b.raw_total,
        );
        const removed = b.adjustments.reduce((sum: number, a: { from: number; to: number }) => sum + a.from - a.to, 0);
        assert.equal(b.raw_total - removed, b.applied_score);
        assert.equal(b.capped, b.adjustments.length > 0);
        assert.equal(r.score, b.applied_score);
        assert.equal(r.phishing_score, b.applied_score);
      });
    }
  });

  it('answers every spec field', async () => {
    const r = (await scan({ domain: 'parcel-redelivery-center.com' })).body;
    for (const field of [
      'domain',
      'score',
      'risk_level',
      'flags',
      'score_breakdown',
      'campaign_tagging_degraded',
      'campaign_tagging',
      'detailed_results',
      'tabs',
    ]) {
      assert.ok(field in r, field);
    }
    assert.equal(r.domain, 'parcel-redelivery-center.com');
    for (const f of ['categories', 'raw_total', 'adjustments', 'applied_score', 'capped', 'reconciles']) {
      assert.ok(f in r.score_breakdown, f);
    }
    for (const f of ['feature_flag_enabled', 'shadow_mode', 'degraded', 'suppressed_reason', 'autonomous_tags']) {
      assert.ok(f in r.campaign_tagging, f);
    }
    assert.equal(r.campaign_tagging.suppressed_reason, 'feature_flag_disabled');
    assert.ok(Array.isArray(r.tabs.redirect_timeline));
    assert.equal(r.tabs.detection.evidencepack.schema, 'preflight.evidencepack.v1');
    const d = r.detailed_results;
    assert.equal(typeof d.whois.age_days, 'number');
    assert.equal(typeof d.ssl.cert_age_days, 'number');
    assert.equal(typeof d.visual.data.degraded, 'boolean');
  });

  it('serves a cached result until force_scan; force scans need a plan that allows them (402)', async () => {
    const first = await scan({ domain: 'northwind-outfitters.com' });
    const again = await scan({ domain: 'https://northwind-outfitters.com/' });
    assert.equal(again.body.cached, true);
    assert.equal(again.body.scan_id, first.body.scan_id);
    const forced = await scan({ domain: 'northwind-outfitters.com', force_scan: true });
    assert.equal(forced.status, 402);
    assert.equal(forced.body.error, 'force_scan_disabled');
    await updateWorkspace(t.knex, 'acme', { plan: 'pro' });
    const fresh = await t.request('POST', '/v1/scan', {
      key,
      body: { domain: 'northwind-outfitters.com', force_scan: true },
    });
    assert.equal(fresh.status, 200);
    assert.equal(fresh.body.cached, false);
    assert.notEqual(fresh.body.scan_id, first.body.scan_id);
    await updateWorkspace(t.knex, 'acme', { plan: 'free' });
  });

  it('429 with Retry-After when the daily scan quota is used up', async () => {
    const k = await t.key('quota-ws');
    const ws = await t.knex('workspaces').where({ name: 'quota-ws' }).first('id');
    await t
      .knex('quota_usage')
      .insert({ workspace_id: ws.id, kind: 'scan', day: t.knex.raw(`(now() at time zone 'utc')::date`), used: 100 });
    const res = await scan({ domain: 'harborviewcu.org' }, k);
    assert.equal(res.status, 429);
    assert.equal(res.body.error, 'quota_exceeded');
    assert.ok(Number(res.headers.get('retry-after')) > 0);
  });

  it('serves the evidence pack as the canonical JSON whose sha256 the scan reports, to its workspace only', async () => {
    const r = (await scan({ domain: 'order-hold-review.shop' })).body;
    const pack = r.tabs.detection.evidencepack;
    const res = await fetch(`${t.baseUrl}/evidencepacks/${pack.id}`, { headers: { Authorization: `Api-Key ${key}` } });
    assert.equal(res.status, 200);
    const text = await res.text();
    assert.equal(createHash('sha256').update(text).digest('hex'), pack.sha256);
    const parsed = JSON.parse(text);
    assert.equal(parsed.ruleset_hash, r.ruleset_hash);
    for (const source of ['dns', 'rdap', 'tls', 'http', 'ct', 'history', 'hostintel', 'browser']) {
      assert.ok(parsed.sources[source]?.collected_at, source);
    }
    const other = await t.key('someone-else');
    const foreign = await t.request('GET', `/evidencepacks/${pack.id}`, { key: other });
    assert.equal(foreign.status, 404);
    assert.equal((await t.request('GET', '/evidencepacks/not-a-uuid', { key })).status, 404);
  });

  describe('bad input', () => {
    const cases: [string, unknown, RegExp][] = [
      ['no domain', {}, /domain is required/],
      ['an empty domain', { domain: '' }, /domain is required/],
      ['a bare word', { domain: 'intranet' }, /invalid domain/],
      ['localhost', { domain: 'localhost' }, /invalid domain/],
      ['another scheme', { domain: 'ftp://example.com/' }, /invalid domain/],
      ['junk characters', { domain: 'exa mple.com' }, /invalid domain/],
      ['an unsupported parameter', { domain: 'example.com', depth: 'deep' }, /unknown field depth/],
      ['force_scan not a boolean', { domain: 'example.com', force_scan: 'yes' }, /force_scan must be boolean/],
    ];
    for (const [name, body, message] of cases) {
      it(`400 for ${name}`, async () => {
        const res = await scan(body);
        assert.equal(res.status, 400);
        assert.match(res.body.message, message);
      });
    }
  });

  it('fast action checks use an earlier scan of the host in the workspace', async () => {
    const k = await t.key('prior-scan');
    const before = await t.request('POST', '/agent/check-action', {
      key: k,
      body: { url: 'https://docview-secure-login.top/' },
    });
    assert.notEqual(before.body.agent_decision, 'block', 'the URL alone is not enough to block');
    const scanned = await scan({ domain: 'docview-secure-login.top' }, k);
    assert.equal(scanned.body.risk_level, 'critical');
    const after = await t.request('POST', '/agent/check-action', {
      key: k,
      body: { url: 'https://docview-secure-login.top/' },
    });
    assert.equal(after.body.agent_decision, 'block');
    assert.equal(after.body.risk_score, scanned.body.score);
    assert.ok(after.body.reasons.some((r: string) => r.startsWith(`earlier scan ${scanned.body.scan_id} `)));
    // Another workspace's scans are not ours to use.
    const other = await t.key('prior-scan-other');
    const elsewhere = await t.request('POST', '/agent/check-action', {
      key: other,
      body: { url: 'https://docview-secure-login.top/' },
    });
    assert.equal(elsewhere.body.agent_decision, before.body.agent_decision);
  });

  it('deep action checks fold the scan in, force block when malicious, and spend the scan quota', async () => {
    const res = await t.request('POST', '/agent/check-action', {
      key,
      body: { url: 'https://parcel-redelivery-center.com/', intent: 'visit', depth: 'deep' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.depth, 'deep');
    assert.equal(res.body.agent_decision, 'block');
    assert.equal(res.body.deep_scan.malicious, true);
    for (const f of ['risk_level', 'risk_score', 'flags', 'malicious']) assert.ok(f in res.body.deep_scan, f);
    assert.match(res.body.reasons[0], /^deep_scan_malicious: /);
    for (const flag of res.body.deep_scan.flags) assert.ok(res.body.flags.includes(flag), flag);

    const k = await t.key('deep-quota');
    const ws = await t.knex('workspaces').where({ name: 'deep-quota' }).first('id');
    await t
      .knex('quota_usage')
      .insert({ workspace_id: ws.id, kind: 'scan', day: t.knex.raw(`(now() at time zone 'utc')::date`), used: 100 });
    const exhausted = await t.request('POST', '/agent/check-action', {
      key: k,
      body: { url: 'https://harborviewcu.org/', depth: 'deep' },
    });
    assert.equal(exhausted.status, 429);
    const fast = await t.request('POST', '/agent/check-action', { key: k, body: { url: 'https://harborviewcu.org/' } });
    assert.equal(fast.status, 200, 'fast checks never count against the quota');
  });
});
