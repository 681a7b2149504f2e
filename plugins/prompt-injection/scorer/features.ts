/**
 * Hashed text features for the learned injection scorer, shared by the trainer and the screen so both see exactly
 * the same numbers.
 *
 * A span of normalised text is described by every character n-gram of length 2–5 and every word unigram and bigram
 * that lies fully inside the span. Characters are folded first (lower case, accents dropped from Latin letters,
 * Cyrillic and Greek look-alikes mapped to Latin, all white space one space), so typos, missing accents and
 * homoglyphs still share most of their n-grams with the clean spelling; character n-grams also carry Chinese and
 * Japanese, which have no spaces between words. Each Han or kana character is a word of its own, so word bigrams are
 * character bigrams there. Every feature counts 1 and lands in one of 2^bits buckets (feature hashing); the vector is
 * scaled by 1/sqrt(number of features), so a window's score does not grow with its length.
 *
 * Hashes are computed from character codes with `Math.imul` (no strings are built per n-gram), which makes feature
 * extraction linear in the span length with a small constant.
 */

/** Bumped whenever the feature definition changes: a weights file records the version it was trained with. */
export const FEATURE_VERSION = 2;

export const MIN_CHAR_GRAM = 2;
export const MAX_CHAR_GRAM = 5;

/** Character classes for word splitting. */
const OTHER = 0;
const SPACE = 1;
const WORD = 2;
/** A Han, kana or Hangul character: a word by itself. */
const CJK = 3;

/** Folded code and character class of every BMP code unit (exported for the scorer's fused pass in score-segment.ts). */
export const FOLD = new Uint16Array(65536);
export const CLASS = new Uint8Array(65536);
export { CJK as CJK_CLASS, WORD as WORD_CLASS };

/** Cyrillic and Greek letters that look like Latin ones (after lower-casing). */
const CONFUSABLES: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  з: '3',
  і: 'i',
  ї: 'i',
  ј: 'j',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  α: 'a',
  β: 'b',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
};

function isCjk(c: number): boolean {
  return (
    (c >= 0x3040 && c <= 0x30ff) || // hiragana, katakana
    (c >= 0x3400 && c <= 0x4dbf) || // CJK extension A
    (c >= 0x4e00 && c <= 0x9fff) || // CJK unified ideographs
    (c >= 0xac00 && c <= 0xd7af) || // Hangul syllables
    (c >= 0xf900 && c <= 0xfaff) // CJK compatibility ideographs
  );
}

(function buildTables() {
  // One regex pass over a string of every BMP character (surrogates left out, so index = code point − offset)
  // instead of a regex call per character: building the tables stays a few milliseconds at load.
  let all = '';
  const chunk: number[] = [];
  for (let c = 0; c < 0xd800; c++) chunk.push(c);
  for (let c = 0xe000; c < 65536; c++) chunk.push(c);
  for (let i = 0; i < chunk.length; i += 8192) all += String.fromCharCode(...chunk.slice(i, i + 8192));
  const wordMap = all.replace(/[\p{L}\p{N}_]/gu, '\u0001').replace(/\s/gu, '\u0002');
  for (let i = 0; i < chunk.length; i++) {
    const c = i < 0xd800 ? i : i - 0xd800 + 0xe000;
    const k = wordMap.charCodeAt(i);
    if (k === 2) {
      FOLD[c] = 0x20;
      CLASS[c] = SPACE;
      continue;
    }
    let folded = c;
    if (c < 0x80) {
      if (c >= 0x41 && c <= 0x5a) folded = c | 0x20;
    } else {
      const lower = String.fromCharCode(c).toLowerCase();
      if (lower.length === 1) {
        folded = lower.charCodeAt(0);
        const conf = CONFUSABLES[lower];
        if (conf) folded = conf.charCodeAt(0);
        else if (folded >= 0xc0 && folded < 0x250) {
          // Latin letters with diacritics: é → e (ß stays: its NFD is itself).
          const base = lower.normalize('NFD').charCodeAt(0);
          if (base < 0x80) folded = base;
        }
      }
    }
    FOLD[c] = folded;
    CLASS[c] = isCjk(c) ? CJK : k === 1 ? WORD : OTHER;
  }
  // Surrogate halves: part of character n-grams (emoji, rare scripts), never of words.
  for (let c = 0xd800; c < 0xe000; c++) {
    FOLD[c] = c;
    CLASS[c] = OTHER;
  }
})();

/** A segment prepared for scoring: folded character codes and the word boundaries. */
export interface Prepared {
  codes: Uint16Array;
  /** Start (inclusive) and end (exclusive) of each word, in order. */
  wordStart: Int32Array;
  wordEnd: Int32Array;
  /** FNV hash of each word's folded characters. */
  wordHash: Int32Array;
  wordCount: number;
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** Final mixing step of MurmurHash3: spreads nearby hash values over the whole 32-bit range. */
export function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Seeds that keep n-grams of different kinds apart in the same bucket space. */
const CHAR_SEED = [0, 0, 0x9e3779b1, 0x7f4a7c15, 0x3c6ef372, 0x1b873593];
const UNIGRAM_SEED = 0x27d4eb2f;
const BIGRAM_SEED = 0x165667b1;

export function prepare(text: string): Prepared {
  const n = text.length;
  const codes = new Uint16Array(n);
  // First pass: fold the characters and count the words, so the word arrays are allocated once at their size.
  let words = 0;
  let inWord = false;
  // Quote markers at the start of a line ("> ", ">> ") are layout (mail quoting, Markdown blockquotes, menus written
  // as "> item"), not wording: they fold to spaces so that a list of quoted one-word lines reads like the list.
  let lineStart = true;
  for (let i = 0; i < n; i++) {
    const raw = text.charCodeAt(i);
    if (raw === 0x0a) lineStart = true;
    else if (raw === 0x3e && lineStart) {
      codes[i] = 0x20;
      inWord = false;
      continue;
    } else if (raw !== 0x20 && raw !== 0x09 && raw !== 0x0d) lineStart = false;
    codes[i] = FOLD[raw]!;
    const k = CLASS[raw]!;
    if (k === CJK) {
      words++;
      inWord = false;
    } else if (k === WORD) {
      if (!inWord) words++;
      inWord = true;
    } else inWord = false;
  }
  const wordStart = new Int32Array(words);
  const wordEnd = new Int32Array(words);
  const wordHash = new Int32Array(words);
  let w = -1;
  let h = FNV_OFFSET;
  inWord = false;
  for (let i = 0; i < n; i++) {
    const k = CLASS[text.charCodeAt(i)]!;
    if (k === WORD) {
      if (!inWord) {
        w++;
        wordStart[w] = i;
        h = FNV_OFFSET;
        inWord = true;
      }
      h = Math.imul(h ^ codes[i]!, FNV_PRIME);
      wordEnd[w] = i + 1;
      wordHash[w] = h;
    } else {
      inWord = false;
      if (k === CJK) {
        w++;
        wordStart[w] = i;
        wordEnd[w] = i + 1;
        wordHash[w] = Math.imul(FNV_OFFSET ^ codes[i]!, FNV_PRIME);
      }
    }
  }
  return { codes, wordStart, wordEnd, wordHash, wordCount: words };
}

/** Multiplier of the bucket hash (Knuth's multiplicative hashing: the top `bits` bits of h·GOLDEN). */
export const GOLDEN = 0x9e3779b1 | 0;

export function unigramBucket(wordHash: number, shift: number): number {
  return fmix(wordHash ^ UNIGRAM_SEED) >>> shift;
}

export function bigramBucket(prevHash: number, wordHash: number, shift: number): number {
  return fmix(Math.imul(prevHash, 31) + wordHash + BIGRAM_SEED) >>> shift;
}

/** Bucket of a character n-gram from its FNV hash: one multiply, since the n-grams are the bulk of the work. */
export function charBucket(h: number, len: number, shift: number): number {
  return Math.imul(h ^ CHAR_SEED[len]!, GOLDEN) >>> shift;
}

/** Number of character n-grams (lengths 2–5) fully inside a span of `len` characters. */
export function charGramCount(len: number): number {
  let n = 0;
  for (let g = MIN_CHAR_GRAM; g <= MAX_CHAR_GRAM; g++) if (len >= g) n += len - g + 1;
  return n;
}

/**
 * Calls `visit(bucket)` (0 ≤ bucket < 2^bits) for every feature of the span [a, b) of a prepared segment and returns how many there were.
 * This is the reference definition of the features; the trainer uses it, and the fast scorer must agree with it.
 */
export function forEachFeature(
  p: Prepared,
  a: number,
  b: number,
  bits: number,
  visit: (bucket: number) => void,
): number {
  const shift = 32 - bits;
  let count = 0;
  for (let s = a; s < b; s++) {
    let h = FNV_OFFSET;
    for (let len = 1; len <= MAX_CHAR_GRAM && s + len <= b; len++) {
      h = Math.imul(h ^ p.codes[s + len - 1]!, FNV_PRIME);
      if (len >= MIN_CHAR_GRAM) {
        visit(charBucket(h, len, shift));
        count++;
      }
    }
  }
  for (let w = firstWordFrom(p, a); w < p.wordCount && p.wordEnd[w]! <= b; w++) {
    visit(unigramBucket(p.wordHash[w]!, shift));
    count++;
    if (w > 0 && p.wordStart[w - 1]! >= a) {
      visit(bigramBucket(p.wordHash[w - 1]!, p.wordHash[w]!, shift));
      count++;
    }
  }
  return count;
}

/** Index of the first word whose start is ≥ pos (binary search). */
export function firstWordFrom(p: Prepared, pos: number): number {
  let lo = 0;
  let hi = p.wordCount;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (p.wordStart[mid]! < pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export { CHAR_SEED, FNV_OFFSET, FNV_PRIME };
