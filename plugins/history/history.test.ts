import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseTarget } from '../../core/engine/url/target.ts';
import type { HistoryCapture, HistoryClient } from '../../core/evidence/sources/history-client.ts';
import { failed, found } from '../../core/evidence/sources/lookup.ts';
import type { ScanEvidence } from '../../core/services/scan/evidence.ts';
import { type ScanLab, startScanLab } from '../../test/support/scan-lab.ts';
import { DEFAULT_HISTORY_CONFIG } from './config.ts';
import history from './index.ts';
import { isRecentFirstSeen, summariseHistory } from './public-footprint.ts';

const DAY = 86_400_000;
const NOW = Date.parse('2025-06-01T12:00:00Z');
const capture = (age_days: number, hour = 0): HistoryCapture => {
  const date = new Date(NOW - age_days * DAY + hour * 3_600_000).toISOString().slice(0, 19).concat('Z');
  return { timestamp: date.replace(/\D/g, '').slice(0, 14), date, original: 'https://a.example/', age_days };
};
const summary = (...ages: number[]) =>
  summariseHistory(
    ages.map((a) => capture(a)),
    DEFAULT_HISTORY_CONFIG,
  );

describe('summariseHistory', () => {
  it('reads no capture as no public history and a thin footprint, with no first-seen date', () => {
    assert.deepEqual(summary(), { capture_days: 0, no_public_history: true, thin_public_footprint: true });
  });

  it('is thin up to two capture days, not from three', () => {
    assert.equal(summary(900, 20).thin_public_footprint, true);
    assert.equal(summary(900, 400, 20).thin_public_footprint, false);
  });

  it('counts days, not captures: a crawler burst on one day is one day', () => {
    const burst = [0, 1, 2, 3, 4, 5].map((h) => capture(10, h));
    assert.equal(summariseHistory(burst, DEFAULT_HISTORY_CONFIG).capture_days, 1);
  });

  it('dates the first sighting by the oldest capture', () => {
    assert.equal(summary(3, 30, 10).first_seen_days_ago, 30);
    assert.equal(isRecentFirstSeen(summary(3, 30), DEFAULT_HISTORY_CONFIG), true);
    assert.equal(isRecentFirstSeen(summary(3, 31), DEFAULT_HISTORY_CONFIG), false);
    assert.equal(isRecentFirstSeen(summary(), DEFAULT_HISTORY_CONFIG), false);
  });
});

describe('history with a stubbed site lookup', () => {
  const run = async (client: HistoryClient, url: string, captures: HistoryCapture[]) => {
    const evidence = { target: parseTarget(url), history: found(captures) } as unknown as ScanEvidence;
    const detector = history.create({ deps: { history: client }, config: DEFAULT_HISTORY_CONFIG });
    return detector.detect({
      surface: 'scan',
      url,
      target: evidence.target,
      evidence,
      signal: AbortSignal.timeout(5_000),
    });
  };

  it('raises nothing on a subdomain when the registered site cannot be looked up, and says why', async () => {
    const output = await run({ captures: async () => failed('timeout') }, 'https://jobs.example.com/', []);
    assert.deepEqual(output.findings, []);
    assert.match((output.data!['whois.data.domain_history_evidence'] as string[]).join(' '), /\(timeout\)/);
  });

  it('merges the registered site into the subdomain history', async () => {
    const client: HistoryClient = { captures: async () => found([capture(800), capture(300), capture(40)]) };
    const output = await run(client, 'https://jobs.example.com/', [capture(2)]);
    assert.deepEqual(output.findings, []);
    assert.deepEqual(output.data!['whois.data.domain_history'], {
      first_seen_days_ago: 800,
      capture_days: 4,
      no_public_history: false,
      thin_public_footprint: false,
    });
  });

  it('omits every field when the history source failed', async () => {
    const evidence = { target: parseTarget('https://a.example/'), history: failed('unreachable') };
    const detector = history.create({
      deps: { history: { captures: async () => found([]) } },
      config: DEFAULT_HISTORY_CONFIG,
    });
    const out = await detector.detect({
      surface: 'scan',
      evidence: evidence as unknown as ScanEvidence,
      signal: new AbortController().signal,
    });
    assert.deepEqual(out, { findings: [] });
  });
});

describe('history on the lab', () => {
  let lab: ScanLab;
  before(async () => {
    lab = await startScanLab();
  });
  after(() => lab.close());

  const scan = (site: string) =>
    lab.detect(history.create({ deps: { history: lab.sources.history }, config: history.meta.defaultConfig! }), site);

  // The fixture tables run in test/contract/plugins.test.ts, through the whole scan pipeline.

  it('reports the history under whois.data.domain_history', async () => {
    const { data } = await scan('order-hold-review.shop');
    assert.deepEqual(data!['whois.data.domain_history'], {
      first_seen_days_ago: 15,
      capture_days: 1,
      no_public_history: false,
      thin_public_footprint: true,
    });
    assert.equal((data!['whois.data.domain_history_evidence'] as string[]).length, 1);
  });
});
