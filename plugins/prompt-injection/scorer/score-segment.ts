/**
 * Scoring a whole segment: every window (windows.ts) of the learned scorer in time linear in the segment, the best
 * returned. One pass over the characters writes prefix sums of the n-gram weights, after which a window costs O(1):
 * its sum is a difference of prefix sums plus the few n-grams that cross its right edge.
 */
import type { Meter } from '../matcher.ts';
import {
  bigramBucket,
  CHAR_SEED,
  CJK_CLASS,
  CLASS,
  charBucket,
  charGramCount,
  FNV_OFFSET,
  FNV_PRIME,
  FOLD,
  GOLDEN,
  MAX_CHAR_GRAM,
  MIN_CHAR_GRAM,
  unigramBucket,
  WORD_CLASS,
} from './features.ts';
import type { ScorerModel, SegmentScore, WindowScore } from './model.ts';
import { MAX_WINDOW, scoresAlone, separatorAt, UnitCollector, type UnitSpans } from './windows.ts';

function grown(a: Int32Array): Int32Array<ArrayBuffer> {
  const b = new Int32Array(2 * a.length);
  b.set(a);
  return b;
}

// Scratch arrays of the scorer, kept between calls while they stay small (SCRATCH_CHARS characters of segment): the
// arrays cost more to allocate than a short segment costs to score. A longer segment scores in arrays of its own.
const SCRATCH_CHARS = 1 << 16;
let scratchCodes = new Uint16Array(0);
let scratchPrefix = new Float64Array(0);
let scratchClasses = new Uint8Array(0);
let scratchWords: { start: Int32Array; end: Int32Array; hash: Int32Array } = {
  start: new Int32Array(0),
  end: new Int32Array(0),
  hash: new Int32Array(0),
};
let scratchUnits: UnitSpans | undefined;
/** Set while a call uses the scratch arrays: an `onWindow` callback that scores again gets arrays of its own. */
let scratchBusy = false;

/**
 * Scores every window of a segment in time linear in its length and returns the best. `meter` counts elementary
 * steps (characters hashed, words, windows) for the linearity test.
 *
 * The first pass folds the characters (as prepare() does) and finds the units, then findWords() finds the words
 * with their hashes and charGramSums() writes prefix sums of the character n-gram weights (each n-gram added in the
 * order prepare() + the n-gram loop of the reference used, so every sum is bit for bit the same). Each loop is a
 * function of its own: V8 compiles a small loop well, and the one fused loop that did all three (and once five) ran
 * slower than the three apart — the n-gram sums alone took four times as long inside it.
 */
export function scoreSegment(
  model: ScorerModel,
  text: string,
  meter?: Meter,
  onWindow?: (w: WindowScore) => void,
): SegmentScore {
  const n = text.length;
  if (n === 0) return { windows: 0 };
  const small = n <= SCRATCH_CHARS && !scratchBusy;
  const pass = firstPass(model, text, small);
  if (small) {
    scratchWords = { start: pass.wordStart, end: pass.wordEnd, hash: pass.wordHash };
    scratchUnits = pass.units;
  }
  const { wordPrefix, bigram } = wordSums(model, pass);
  if (meter) meter.steps += n + pass.words + pass.units.count;
  const { firstWord, endWord } = unitWords(pass);
  const ctx: LogitContext = { model, text, codes: pass.codes, prefix: pass.prefix, wordPrefix, bigram };
  if (small) scratchBusy = true;
  try {
    const result = bestWindow(ctx, pass.units, firstWord, endWord, onWindow);
    if (meter) meter.steps += result.windows;
    return result;
  } finally {
    if (small) scratchBusy = false;
  }
}

/** What the first pass finds: folded characters, n-gram prefix sums, words, units. */
interface Pass {
  codes: Uint16Array;
  /** prefix[s] = sum of the weights of every character n-gram (2–5) starting before s. */
  prefix: Float64Array;
  wordStart: Int32Array;
  wordEnd: Int32Array;
  wordHash: Int32Array;
  words: number;
  units: UnitSpans;
}

function firstPass(model: ScorerModel, text: string, small: boolean): Pass {
  const n = text.length;
  if (small && scratchCodes.length < n) {
    const size = Math.min(SCRATCH_CHARS, Math.max(2 * scratchCodes.length, n, 1024));
    scratchCodes = new Uint16Array(size);
    scratchPrefix = new Float64Array(size + 1);
    scratchClasses = new Uint8Array(size);
  }
  const classes = small ? scratchClasses : new Uint8Array(n);
  const codes = small ? scratchCodes : new Uint16Array(n);
  const prefix = small ? scratchPrefix : new Float64Array(n + 1);
  // Quote markers at the start of a line fold to spaces (see prepare()).
  let lineStart = true;
  // Lines and sentences (windows.ts), found in the same pass.
  const units = new UnitCollector(text, small ? scratchUnits : undefined);
  for (let i = 0; i < n; i++) {
    const raw = text.charCodeAt(i);
    let code: number;
    if (raw > 0x3e) {
      // Letters and most punctuation: not a line break, not a quote marker, not white space.
      lineStart = false;
      code = FOLD[raw]!;
      if (raw === 0x3f || raw >= 0x3002) {
        const kind = separatorAt(text, i, raw);
        if (kind !== 0) units.separator(i, kind);
      }
    } else if (raw === 0x0a) {
      lineStart = true;
      code = FOLD[raw]!;
      units.separator(i, 1);
    } else if (raw === 0x3e && lineStart) code = 0x20;
    else {
      if (raw !== 0x20 && raw !== 0x09 && raw !== 0x0d) lineStart = false;
      code = FOLD[raw]!;
      if (raw === 0x2e || raw === 0x21 || raw === 0x3b) {
        const kind = separatorAt(text, i, raw);
        if (kind !== 0) units.separator(i, kind);
      }
    }
    codes[i] = code;
    classes[i] = CLASS[raw]!;
  }
  const found = findWords(classes, codes, n, small);
  charGramSums(model, codes, n, prefix);
  return { codes, prefix, ...found, units: units.finish() };
}

/** The words of the text (a run of WORD characters, or one CJK character) with their FNV hashes over the folded codes. */
function findWords(
  classes: Uint8Array,
  codes: Uint16Array,
  n: number,
  small: boolean,
): { wordStart: Int32Array; wordEnd: Int32Array; wordHash: Int32Array; words: number } {
  let wordStart = small ? scratchWords.start : new Int32Array(0);
  let wordEnd = small ? scratchWords.end : new Int32Array(0);
  let wordHash = small ? scratchWords.hash : new Int32Array(0);
  if (wordStart.length < 64) {
    wordStart = new Int32Array(Math.max(64, n >>> 3));
    wordEnd = new Int32Array(wordStart.length);
    wordHash = new Int32Array(wordStart.length);
  }
  let words = 0;
  let h = FNV_OFFSET;
  // A word's end and hash are written when it ends (wordOpen: a WORD run is in progress), not at every character.
  let wordOpen = false;
  for (let i = 0; i < n; i++) {
    const k = classes[i]!;
    if (k === WORD_CLASS) {
      if (!wordOpen) {
        if (words === wordStart.length) {
          wordStart = grown(wordStart);
          wordEnd = grown(wordEnd);
          wordHash = grown(wordHash);
        }
        wordStart[words] = i;
        h = FNV_OFFSET;
        wordOpen = true;
      }
      h = Math.imul(h ^ codes[i]!, FNV_PRIME);
    } else {
      if (wordOpen) {
        wordEnd[words] = i;
        wordHash[words] = h;
        words++;
        wordOpen = false;
      }
      if (k === CJK_CLASS) {
        if (words === wordStart.length) {
          wordStart = grown(wordStart);
          wordEnd = grown(wordEnd);
          wordHash = grown(wordHash);
        }
        wordStart[words] = i;
        wordEnd[words] = i + 1;
        wordHash[words] = Math.imul(FNV_OFFSET ^ codes[i]!, FNV_PRIME);
        words++;
      }
    }
  }
  if (wordOpen) {
    wordEnd[words] = n;
    wordHash[words] = h;
    words++;
  }
  return { wordStart, wordEnd, wordHash, words };
}

/**
 * Prefix sums of the weights of the character n-grams (2–5) by start: prefix[s + 1] = the sum over every start up to
 * and including s, prefix[0] = 0. A loop of its own over the code array: fused into firstPass's character loop it ran
 * four times slower.
 */
function charGramSums(model: ScorerModel, codes: Uint16Array, n: number, prefix: Float64Array): void {
  const w = model.weights;
  const shift = model.shift;
  const s2 = CHAR_SEED[2]!;
  const s3 = CHAR_SEED[3]!;
  const s4 = CHAR_SEED[4]!;
  const s5 = CHAR_SEED[5]!;
  prefix[0] = 0;
  let acc = 0;
  // Starts with all five lengths inside the text: four FNV steps, four table reads.
  for (let s = 0; s + MAX_CHAR_GRAM <= n; s++) {
    const h1 = Math.imul(FNV_OFFSET ^ codes[s]!, FNV_PRIME);
    const h2 = Math.imul(h1 ^ codes[s + 1]!, FNV_PRIME);
    const h3 = Math.imul(h2 ^ codes[s + 2]!, FNV_PRIME);
    const h4 = Math.imul(h3 ^ codes[s + 3]!, FNV_PRIME);
    const h5 = Math.imul(h4 ^ codes[s + 4]!, FNV_PRIME);
    acc +=
      w[Math.imul(h2 ^ s2, GOLDEN) >>> shift]! +
      w[Math.imul(h3 ^ s3, GOLDEN) >>> shift]! +
      w[Math.imul(h4 ^ s4, GOLDEN) >>> shift]! +
      w[Math.imul(h5 ^ s5, GOLDEN) >>> shift]!;
    prefix[s + 1] = acc;
  }
  // The last four starts: only the n-grams that fit.
  for (let s = Math.max(0, n - (MAX_CHAR_GRAM - 1)); s < n; s++) {
    let hs = Math.imul(FNV_OFFSET ^ codes[s]!, FNV_PRIME);
    for (let len = MIN_CHAR_GRAM; s + len <= n; len++) {
      hs = Math.imul(hs ^ codes[s + len - 1]!, FNV_PRIME);
      acc += w[charBucket(hs, len, shift)]!;
    }
    prefix[s + 1] = acc;
  }
}

/** wordPrefix[k] = sum of unigram weights of words before k and of bigram weights ending before k. */
function wordSums(model: ScorerModel, pass: Pass): { wordPrefix: Float64Array; bigram: Float64Array } {
  const w = model.weights;
  const shift = model.shift;
  const { words, wordHash } = pass;
  const wordPrefix = new Float64Array(words + 1);
  const bigram = new Float64Array(words);
  let acc = 0;
  for (let k = 0; k < words; k++) {
    const hk = wordHash[k]!;
    acc += w[unigramBucket(hk, shift)]!;
    if (k > 0) {
      const bg = w[bigramBucket(wordHash[k - 1]!, hk, shift)]!;
      bigram[k] = bg;
      acc += bg;
    }
    wordPrefix[k + 1] = acc;
  }
  return { wordPrefix, bigram };
}

/** Word ranges of each unit, found with two moving pointers (units and words are both in text order). */
function unitWords(pass: Pass): { firstWord: Int32Array; endWord: Int32Array } {
  const { words, wordStart, wordEnd } = pass;
  const { count, start, end } = pass.units;
  const firstWord = new Int32Array(count);
  const endWord = new Int32Array(count);
  let kStart = 0;
  let kEnd = 0;
  for (let i = 0; i < count; i++) {
    while (kStart < words && wordStart[kStart]! < start[i]!) kStart++;
    while (kEnd < words && wordEnd[kEnd]! <= end[i]!) kEnd++;
    firstWord[i] = kStart;
    endWord[i] = kEnd;
  }
  return { firstWord, endWord };
}

/**
 * The windows of forEachWindow(), in its order: each unit that scoresAlone(), and from each unit the
 * longest run of units that fits in MAX_WINDOW characters; the first best one wins.
 */
function bestWindow(
  ctx: LogitContext,
  units: UnitSpans,
  firstWord: Int32Array,
  endWord: Int32Array,
  onWindow: ((w: WindowScore) => void) | undefined,
): SegmentScore {
  const { count, start: uStart, end: uEnd } = units;
  let best: WindowScore | undefined;
  let windows = 0;
  let j = 0;
  for (let i = 0; i < count; i++) {
    if (j < i) j = i;
    while (j + 1 < count && uEnd[j + 1]! - uStart[i]! <= MAX_WINDOW) j++;
    for (let pass = 0; pass < 2; pass++) {
      const last = pass === 0 ? i : j;
      if (pass === 0 ? !(scoresAlone(ctx.text, uStart[i]!, uEnd[i]!) || j === i) : !(j > i)) continue;
      const a = uStart[i]!;
      const b = uEnd[last]!;
      const k0 = firstWord[i]!;
      const k1 = Math.max(k0, endWord[last]!);
      const z = windowLogit(ctx, a, b, k0, k1);
      windows++;
      if (onWindow) onWindow({ start: a, end: b, z });
      if (!best || z > best.z) best = { start: a, end: b, z };
    }
  }
  return { best, windows };
}

interface LogitContext {
  model: ScorerModel;
  text: string;
  codes: Uint16Array;
  prefix: Float64Array;
  wordPrefix: Float64Array;
  bigram: Float64Array;
}

/** Logit of the window [a, b) holding words k0 … k1 − 1, from the prefix sums. */
function windowLogit(ctx: LogitContext, a: number, b: number, k0: number, k1: number): number {
  const { model, codes, prefix } = ctx;
  const w = model.weights;
  const shift = model.shift;
  // Character n-grams starting before b − 4 fit whatever their length; nearer the edge only the shorter ones.
  const full = b - (MAX_CHAR_GRAM - 1);
  let sum = full > a ? prefix[full]! - prefix[a]! : 0;
  for (let t = full > a ? full : a; t < b; t++) {
    let h = Math.imul(FNV_OFFSET ^ codes[t]!, FNV_PRIME);
    for (let len = MIN_CHAR_GRAM; t + len <= b; len++) {
      h = Math.imul(h ^ codes[t + len - 1]!, FNV_PRIME);
      sum += w[charBucket(h, len, shift)]!;
    }
  }
  let count = charGramCount(b - a);
  if (k1 > k0) {
    sum += ctx.wordPrefix[k1]! - ctx.wordPrefix[k0]! - (k0 > 0 ? ctx.bigram[k0]! : 0);
    count += 2 * (k1 - k0) - 1;
  }
  return count === 0 ? model.bias : model.bias + sum / Math.sqrt(count);
}
