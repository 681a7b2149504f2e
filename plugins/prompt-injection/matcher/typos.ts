// Typo tolerance for the phrase families: a word that is not in the pattern vocabulary but is one slip of the
// keyboard away from a vocabulary word ("ingore", "evrything", "instrcutions", "prevoius") fills that word's slots.
// Attack lines are typed fast and copied around with their slips, and a few are misspelt on purpose to get past
// word lists; an exact-word automaton missed every one of them.
//
// What counts as one slip (optimal string alignment distance 1: one letter inserted, dropped, replaced, or two
// neighbours swapped), and where it may fall, is chosen so that inflection never reads as a typo:
// - the vocabulary word has at least MIN_LENGTH letters, the typed one at least one less (short words are a slip away
//   from too many other words);
// - the first letter and the last two letters are the same in both: endings carry inflection in every language the
//   screen reads ("ignored", "forgot", "ignora", "previa", "instruction" against "ignore", "forget", "previo",
//   "instructions"), and a different first letter is a different word more often than a slip;
// - only words of letters (Latin script, accents allowed): Han and kana are matched character by character, and a
//   word with digits is an identifier, not prose.
// Lookups go through a symmetric-deletion index (every vocabulary word and its one-letter deletions), so a word costs
// O(its length) map probes, once per interned word.

export const MIN_LENGTH = 6;

const LATIN_WORD = /^[\p{Script=Latin}]+$/u;

export interface TypoIndex {
  /** Vocabulary words one allowed slip away from `word` (empty when `word` is itself in the vocabulary). */
  near(word: string, meter?: { steps: number }): string[];
}

/** Deletions of one letter that an allowed slip can touch: not the first letter, not the last two. */
function innerDeletions(w: string): string[] {
  const out: string[] = [];
  for (let i = 1; i < w.length - 2; i++) out.push(w.slice(0, i) + w.slice(i + 1));
  return out;
}

function eligible(w: string, min: number): boolean {
  return w.length >= min && LATIN_WORD.test(w);
}

/** Whether `a` and `b` differ by exactly one slip, inside the allowed part (same first letter, same last two). */
export function oneSlipApart(a: string, b: string): boolean {
  if (a === b) return false;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1 || a[0] !== b[0]) return false;
  if (a[la - 1] !== b[lb - 1] || a[la - 2] !== b[lb - 2]) return false;
  let p = 0;
  while (p < la && p < lb && a[p] === b[p]) p++;
  if (la === lb) {
    // One replacement, or two neighbours swapped.
    if (a.slice(p + 1) === b.slice(p + 1)) return true;
    return p + 1 < la && a[p] === b[p + 1] && a[p + 1] === b[p] && a.slice(p + 2) === b.slice(p + 2);
  }
  // One letter more in the longer word, at the first difference.
  return la > lb ? a.slice(p + 1) === b.slice(p) : a.slice(p) === b.slice(p + 1);
}

/**
 * `realWords`: words of ordinary text that happen to be one slip from a vocabulary word ("through" / "though",
 * "thanks" / "thinks", "werden" / "werfen", "consent" / "content"): a word in this set is itself, never a slip.
 */
export function typoIndex(vocabulary: Iterable<string>, realWords: ReadonlySet<string> = new Set()): TypoIndex {
  const words = new Set<string>();
  let longest = 0;
  const byDeletion = new Map<string, string[]>();
  const key = (k: string, v: string) => {
    const list = byDeletion.get(k);
    if (!list) byDeletion.set(k, [v]);
    else if (!list.includes(v)) list.push(v);
  };
  for (const v of vocabulary) {
    if (!eligible(v, MIN_LENGTH)) continue;
    words.add(v);
    longest = Math.max(longest, v.length);
    for (const d of innerDeletions(v)) key(d, v);
  }
  return {
    near(w, meter) {
      // A word more than one letter longer than the longest vocabulary word cannot be a slip of one, and must not
      // cost its length squared in deletions (one run of letters can be a megabyte long).
      if (w.length > longest + 1 || !eligible(w, MIN_LENGTH - 1) || words.has(w) || realWords.has(w)) return [];
      const found = new Set<string>();
      const probe = (k: string) => {
        if (meter) meter.steps++;
        if (words.has(k)) found.add(k); // one letter inserted into a vocabulary word
        const list = byDeletion.get(k); // dropped (k = w), replaced or swapped (k = a deletion of w)
        if (list) for (const v of list) found.add(v);
      };
      probe(w);
      for (const d of innerDeletions(w)) probe(d);
      return [...found].filter((v) => oneSlipApart(w, v)).sort();
    },
  };
}
