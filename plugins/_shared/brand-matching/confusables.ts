// Visual folding for hostnames: two labels that a reader cannot tell apart fold to the same skeleton
// (in the spirit of Unicode TR39 "confusable skeletons", cut down to what brand look-alikes use).

/**
 * One character → the Latin letter it passes for. Cyrillic and Greek look-alikes, Latin variants that survive
 * NFKD, and the digit swaps typosquats use. `i`, `l`, `1` and `|` all fold to `l` because in most fonts the
 * reader cannot separate them in a short label.
 */
const CONFUSABLE_CHARS: Readonly<Record<string, string>> = {
  // Cyrillic
  а: 'a',
  в: 'b',
  ь: 'b',
  с: 'c',
  ԁ: 'd',
  е: 'e',
  ё: 'e',
  ɡ: 'g',
  һ: 'h',
  н: 'h',
  і: 'l',
  ї: 'l',
  ӏ: 'l',
  ј: 'j',
  к: 'k',
  м: 'm',
  п: 'n',
  о: 'o',
  р: 'p',
  ԛ: 'q',
  г: 'r',
  ѕ: 's',
  т: 't',
  у: 'y',
  ѵ: 'v',
  ԝ: 'w',
  х: 'x',
  // Greek
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'l',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  γ: 'y',
  ω: 'w',
  // Latin variants NFKD leaves alone
  ı: 'l',
  ł: 'l',
  ɩ: 'l',
  ɪ: 'l',
  ʟ: 'l',
  ɑ: 'a',
  ɴ: 'n',
  ᴏ: 'o',
  ſ: 's',
  ø: 'o',
  đ: 'd',
  ħ: 'h',
  // ASCII look-alikes
  i: 'l',
  '|': 'l',
  '0': 'o',
  '1': 'l',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
};

/** Letter pairs that render as one letter (`rn` → `m`); applied after the single-character folds. */
const CONFUSABLE_SEQUENCES: readonly (readonly [string, string])[] = [
  ['rn', 'm'],
  ['vv', 'w'],
  ['cl', 'd'],
];

/** Labels longer than a DNS label are not hostnames; cap the work anyway. */
const MAX_SKELETON_INPUT = 253;

/** The visual skeleton of a hostname label (or any short string): what a reader believes they see. */
export function skeleton(text: string): string {
  const memo = text.length <= MEMO_MAX_INPUT ? SKELETONS.get(text) : undefined;
  if (memo !== undefined) return memo;
  const stripped = text.slice(0, MAX_SKELETON_INPUT).normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  let folded = '';
  for (const ch of stripped) folded += CONFUSABLE_CHARS[ch] ?? ch;
  for (const [from, to] of CONFUSABLE_SEQUENCES) folded = folded.replaceAll(from, to);
  if (text.length <= MEMO_MAX_INPUT) {
    if (SKELETONS.size >= MEMO_MAX_ENTRIES) SKELETONS.clear();
    SKELETONS.set(text, folded);
  }
  return folded;
}

// Every URL check folds each host label against every brand's domain names: the same few hundred short strings
// each time. Short inputs (labels, names) are remembered; long texts are not (they rarely repeat).
const MEMO_MAX_INPUT = 64;
const MEMO_MAX_ENTRIES = 20_000;
const SKELETONS = new Map<string, string>();

/** True when `text` holds characters outside ASCII (a punycode host decoded to Unicode). */
export function hasNonAscii(text: string): boolean {
  return /[^\x00-\x7f]/.test(text);
}

/**
 * Letter pairs (after folding) a hurried reader confuses, so a one-letter swap between them is a look-alike
 * rather than a different word (`arnazon` is folded already; `amazom` is caught here).
 */
const VISUAL_NEIGHBOURS: ReadonlySet<string> = new Set([
  'mn',
  'nm',
  'uv',
  'vu',
  'ce',
  'ec',
  'gq',
  'qg',
  'bd',
  'db',
  'pq',
  'qp',
  'oa',
  'ao',
  'co',
  'oc',
]);

export type SingleEdit =
  | { kind: 'insertion'; char: string; index: number }
  | { kind: 'deletion'; char: string; index: number }
  | { kind: 'substitution'; from: string; to: string; index: number }
  | { kind: 'transposition'; index: number };

/**
 * The one edit that turns `expected` into `actual` (Levenshtein distance 1, plus an adjacent swap), or undefined
 * when they are equal or further apart. Linear time: it never builds the full distance matrix.
 */
export function singleEditBetween(actual: string, expected: string): SingleEdit | undefined {
  if (actual === expected || Math.abs(actual.length - expected.length) > 1) return undefined;
  let i = 0;
  while (i < actual.length && i < expected.length && actual[i] === expected[i]) i++;
  if (actual.length === expected.length + 1) {
    return actual.slice(i + 1) === expected.slice(i) ? { kind: 'insertion', char: actual[i]!, index: i } : undefined;
  }
  if (actual.length + 1 === expected.length) {
    return actual.slice(i) === expected.slice(i + 1) ? { kind: 'deletion', char: expected[i]!, index: i } : undefined;
  }
  if (actual.slice(i + 1) === expected.slice(i + 1)) {
    return { kind: 'substitution', from: expected[i]!, to: actual[i]!, index: i };
  }
  if (actual[i] === expected[i + 1] && actual[i + 1] === expected[i] && actual.slice(i + 2) === expected.slice(i + 2)) {
    return { kind: 'transposition', index: i };
  }
  return undefined;
}

/**
 * Whether a single edit of a brand token reads as the brand. Five-letter tokens collide with ordinary words
 * (`apple`/`apply`, `gmail`/`email`, `slack`/`black`), so for them only a doubled or dropped double letter or a
 * visual neighbour counts; from six letters any insertion, deletion or swap does, but a substitution still has
 * to be a visual neighbour (`binance`/`finance` is a different word, `amazom` is not).
 */
export function editReadsAsToken(edit: SingleEdit, token: string): boolean {
  if (token.length < 5) return false;
  if (edit.kind === 'substitution') return VISUAL_NEIGHBOURS.has(edit.from + edit.to);
  if (token.length >= 6) return true;
  if (edit.kind === 'insertion') return token[edit.index - 1] === edit.char || token[edit.index] === edit.char;
  if (edit.kind === 'deletion') return token[edit.index - 1] === edit.char || token[edit.index + 1] === edit.char;
  return false;
}
