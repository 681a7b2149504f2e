import { normaliseName } from '../../engine/text/normalise.ts';

/**
 * Case-insensitive wildcard match where `*` stands for any run of characters. Greedy two-pointer matching with
 * one backtrack point: O(pattern × name) in the worst case, and both are length-limited by the policy schema.
 */
export function globMatch(pattern: string, name: string): boolean {
  const p = pattern.toLowerCase();
  const s = name.toLowerCase();
  let pi = 0;
  let si = 0;
  let star = -1;
  let resume = 0;
  while (si < s.length) {
    if (pi < p.length && p[pi] !== '*' && p[pi] === s[si]) {
      pi++;
      si++;
    } else if (pi < p.length && p[pi] === '*') {
      star = pi++;
      resume = si;
    } else if (star >= 0) {
      pi = star + 1;
      si = ++resume;
    } else {
      return false;
    }
  }
  while (pi < p.length && p[pi] === '*') pi++;
  return pi === p.length;
}

/**
 * The first entry of `list` that matches `name` (exactly or as a pattern), if any. Both sides are compared in
 * their normalised form (NFKC, invisible characters removed, trimmed, case-folded); the entry is returned as
 * written.
 */
export function firstMatch(list: readonly string[], name: string): string | undefined {
  const normalisedName = normaliseName(name);
  return list.find((entry) => globMatch(normaliseName(entry), normalisedName));
}
