// Issue 11 item 10: score_breakdown.reconciles must mean "raw_total minus every recorded reduction is the applied
// score", so it can be false. Category caps are recorded reductions; a breakdown that drops points silently fails.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AdjustmentRule, CategoryRule } from '../../core/engine/rules/ruleset.ts';
import {
  CATEGORY_CAP_REASON,
  CEILING_REASON,
  reconciles,
  type ScoreBreakdown,
  Scorer,
} from '../../core/engine/scoring/score-breakdown.ts';

const categories: Record<string, CategoryRule> = {
  whois: { cap: 45 },
  ct: { cap: 20, weak: true },
  content: { lure: true },
};
const weights: Record<string, number> = {
  'whois:very_recent_registration': 35,
  'whois:ultra_recent_registration': 30,
  'ct:no_history': 15,
  'ct:single_issuer': 15,
  'content:credential_form': 50,
  'content:brand_lure': 40,
};
const hygieneOnly = {
  name: 'hygiene_only',
  conditions: { all: [{ fact: 'weak_only', operator: 'equal', value: true }] },
  event: { type: 'adjustment', params: { reason: 'hygiene_only', detail: 'weak only', cap: 20 } },
} as unknown as AdjustmentRule;
const scorer = new Scorer({
  weights,
  categories,
  adjustments: [hygieneOnly],
  riskLevels: { low: 0, medium: 30, high: 60, critical: 85 },
});
const facts = { brand_owned: false, known_good: false, domain_age_days: 3, first_seen_days_ago: -1 };

describe('score_breakdown reconciliation', () => {
  it('records each category cap as an adjustment; the books balance', async () => {
    const { breakdown: b } = await scorer.score(
      ['whois:very_recent_registration', 'whois:ultra_recent_registration', 'content:credential_form'],
      facts,
    );
    assert.deepEqual(b.categories, { whois: 65, content: 50 }, 'categories are the points the flags weigh');
    assert.equal(b.raw_total, 115);
    assert.deepEqual(
      b.adjustments.map((a) => [a.reason, a.from, a.to]),
      [
        [CATEGORY_CAP_REASON, 115, 95],
        // 95 is under 100: no ceiling
      ],
    );
    assert.equal(b.applied_score, 95);
    assert.equal(b.capped, true);
    assert.equal(b.reconciles, true);
  });

  it('caps, rule adjustments and the ceiling chain in order', async () => {
    const { breakdown: b } = await scorer.score(
      [
        'whois:very_recent_registration',
        'whois:ultra_recent_registration',
        'content:credential_form',
        'content:brand_lure',
      ],
      facts,
    );
    assert.deepEqual(
      b.adjustments.map((a) => a.reason),
      [CATEGORY_CAP_REASON, CEILING_REASON],
    );
    assert.equal(b.raw_total, 155);
    assert.equal(b.applied_score, 100);
    assert.equal(b.reconciles, true);
  });

  it('rule adjustments still see the total after caps (verdicts unchanged)', async () => {
    const { breakdown: b } = await scorer.score(['ct:no_history', 'ct:single_issuer'], facts);
    assert.equal(b.raw_total, 30);
    assert.deepEqual(
      b.adjustments.map((a) => [a.reason, a.from, a.to]),
      [
        [CATEGORY_CAP_REASON, 30, 20],
        // hygiene_only caps at 20: the score is already 20, so nothing more is removed or recorded
      ],
    );
    assert.equal(b.applied_score, 20);
    assert.equal(b.reconciles, true);
  });

  it('a breakdown that does not reconcile is false', async () => {
    const { breakdown } = await scorer.score(
      ['whois:very_recent_registration', 'whois:ultra_recent_registration', 'content:credential_form'],
      facts,
    );
    const { reconciles: _, ...good } = breakdown;
    assert.equal(reconciles(good), true);
    const broken: Omit<ScoreBreakdown, 'reconciles'>[] = [
      // the category cap applied but not recorded: points removed without a reason
      { ...good, adjustments: [] },
      // applied score lower than the recorded reductions explain
      { ...good, applied_score: good.applied_score - 5 },
      // raw_total that is not the sum of the categories
      { ...good, raw_total: good.raw_total + 1 },
      // a chain with a gap
      { ...good, adjustments: good.adjustments.map((a) => ({ ...a, from: a.from + 3 })) },
      // an "adjustment" that adds points
      {
        ...good,
        adjustments: [...good.adjustments, { reason: 'x', detail: 'x', from: 95, to: 99 }],
        applied_score: 99,
      },
      // capped false although points were removed
      { ...good, capped: false },
    ];
    for (const b of broken) assert.equal(reconciles(b), false, JSON.stringify(b));
  });

  it('no flags: zero, nothing removed, reconciles', async () => {
    const { breakdown: b } = await scorer.score([], facts);
    assert.deepEqual(b, {
      categories: {},
      raw_total: 0,
      adjustments: [],
      applied_score: 0,
      capped: false,
      reconciles: true,
    });
  });
});
