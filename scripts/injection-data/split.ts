// Splits by group (a source file, template or page), never by record, so the test split holds whole templates and
// sources the train split never saw. A source can also be pinned whole to one split.

import type { Split } from './record.ts';
import { hash32 } from './rng.ts';

export type SplitPolicy =
  | { kind: 'hash'; validation: number; test: number } // fractions of groups; the rest is train
  | { kind: 'only'; split: Split }; // the whole source goes to one split

export const DEFAULT_POLICY: SplitPolicy = { kind: 'hash', validation: 0.15, test: 0.2 };

/** Where a group goes. The salt lets the build re-draw every assignment at once without touching the data. */
export function splitOfGroup(group: string, policy: SplitPolicy, salt = 'injection-split-v1'): Split {
  if (policy.kind === 'only') return policy.split;
  const u = hash32(`${salt}\u0000${group}`) / 4294967296;
  if (u < policy.test) return 'test';
  if (u < policy.test + policy.validation) return 'validation';
  return 'train';
}

/**
 * Exact fractions for a set of groups: groups are ordered by a salted hash and cut by rank, so even a source (or a
 * language x family stratum) with a handful of templates puts some in every split. Deterministic for a given set.
 */
export function assignByRank(
  groups: Iterable<string>,
  policy: SplitPolicy,
  salt = 'injection-split-v1',
): Map<string, Split> {
  const unique = [...new Set(groups)].sort();
  const out = new Map<string, Split>();
  if (policy.kind === 'only') {
    for (const g of unique) out.set(g, policy.split);
    return out;
  }
  const ordered = unique
    .map((g) => ({ g, h: hash32(`${salt}\u0000${g}`) }))
    .sort((a, b) => a.h - b.h || (a.g < b.g ? -1 : 1));
  const n = ordered.length;
  // Round half up, but give validation and test at least one group each once there are three or more groups.
  let nTest = Math.round(n * policy.test);
  let nVal = Math.round(n * policy.validation);
  if (n >= 3) {
    if (policy.test > 0) nTest = Math.max(1, nTest);
    if (policy.validation > 0) nVal = Math.max(1, nVal);
  }
  ordered.forEach(({ g }, i) => {
    out.set(g, i < nTest ? 'test' : i < nTest + nVal ? 'validation' : 'train');
  });
  return out;
}

/**
 * Every item its own group, cut by rank (`assignByRank`): the items in their order with their group and split. For
 * phrases a record combines, so that a split only ever combines its own phrases.
 */
export function splitEach<T>(
  items: readonly T[],
  groupOf: (item: T, index: number) => string,
  policy: SplitPolicy = DEFAULT_POLICY,
): { item: T; group: string; split: Split }[] {
  const groups = items.map(groupOf);
  const splits = assignByRank(groups, policy);
  return items.map((item, i) => ({ item, group: groups[i]!, split: splits.get(groups[i]!)! }));
}

/** `splitEach`, bucketed: each split's items (with their groups) in their original order. */
export function splitEachBySplit<T>(
  items: readonly T[],
  groupOf: (item: T, index: number) => string,
  policy: SplitPolicy = DEFAULT_POLICY,
): Record<Split, { item: T; group: string }[]> {
  const out: Record<Split, { item: T; group: string }[]> = { train: [], validation: [], test: [] };
  for (const { item, group, split } of splitEach(items, groupOf, policy)) out[split].push({ item, group });
  return out;
}
