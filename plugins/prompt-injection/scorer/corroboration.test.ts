import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CorroborationRecord, modelSteps, pickCorroboration } from './corroboration.ts';

const attack = (p: number, score: number, flagged = false): CorroborationRecord => ({
  label: 1,
  flagged,
  windows: [{ p, score }],
});
const benign = (p: number, score: number, flagged = false): CorroborationRecord => ({
  label: 0,
  flagged,
  windows: [{ p, score }],
});
/** Records that no pair can reach: they only set the denominators. */
const filler = (label: 0 | 1, n: number): CorroborationRecord[] =>
  Array.from({ length: n }, () => ({ label, flagged: false, windows: [{ p: 0.01, score: 0 }] }));

describe('corroboration pair', () => {
  it('tries probabilities from 0.3 in steps of 0.05 below the approval threshold', () => {
    assert.deepEqual(modelSteps(0.5), [0.3, 0.35, 0.4, 0.45]);
    assert.deepEqual(modelSteps(0.3), []);
  });

  it('takes the pair with the largest gain, weighing a benign flag by the two budgets', () => {
    // 100 attacks, 1000 benign; cost 10 (95 % recall, 0.5 % flags): one benign flag (0.1 %) costs 1 point of recall,
    // i.e. one attack. From 0.3: 6 attacks and 4 benign, gain 2 points; from 0.45: 4 and 2, gain 2; from 0.5 and from
    // 0.55: 4 and 0, gain 4 (the higher probability wins the tie); from 0.6: 3 and 0.
    const records = [
      ...[0.55, 0.6, 0.65, 0.7, 0.35, 0.4].map((p) => attack(p, 0.5)),
      ...[0.42, 0.44, 0.46, 0.48].map((p) => benign(p, 0.5)),
      ...filler(1, 94),
      ...filler(0, 996),
    ];
    assert.deepEqual(pickCorroboration(records, 0.8, 0.005), {
      model_p: 0.55,
      pattern_score: 0.5,
      attacks: 4,
      benign: 0,
    });
  });

  it('counts only records the screen does not already flag, and needs both signals in one window', () => {
    const records = [
      attack(0.6, 0.5, true),
      {
        label: 1 as const,
        flagged: false,
        windows: [
          { p: 0.6, score: 0 },
          { p: 0.1, score: 0.5 },
        ],
      },
      ...filler(1, 10),
      ...filler(0, 100),
    ];
    assert.equal(pickCorroboration(records, 0.8, 0.005), undefined);
  });

  it('picks nothing when every pair costs more than it gains', () => {
    const records = [attack(0.6, 0.5), benign(0.6, 0.5), ...filler(1, 99), ...filler(0, 999)];
    assert.equal(pickCorroboration(records, 0.8, 0.005), undefined);
  });

  it('on equal gain, prefers the higher pattern score, then the higher probability', () => {
    const records = [attack(0.7, 0.8), ...filler(1, 9), ...filler(0, 100)];
    assert.deepEqual(pickCorroboration(records, 0.8, 0.005), {
      model_p: 0.7,
      pattern_score: 0.75,
      attacks: 1,
      benign: 0,
    });
  });
});
