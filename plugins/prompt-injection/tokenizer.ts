/**
 * Tokenizer of the pattern layer: folded words with sentence and line numbers.
 *
 * Tokens are kept as parallel typed arrays (a struct of arrays), and each word is interned: equal words share one
 * string and one id. A megabyte of text is some 200,000 tokens; as one object and one fresh string each they
 * outlived the young generation, and copying them in garbage collection made the screen superlinear (about twice
 * the per-megabyte time at 1 MB as at 100 KB). Words of plain ASCII letters, most of them, are hashed and looked up
 * straight from the text, without building a string.
 */
import { FNV_OFFSET, FNV_PRIME, internAsciiRun, internDict, internEpoch, internString, resetIfFull } from './intern.ts';
import type { Meter } from './matcher.ts';
import { foldWord, isCjk, table } from './word-chars.ts';

export { isCjk } from './word-chars.ts';

export interface Tokens {
  length: number;
  /** The text the tokens are offsets into. */
  text: string;
  /** Intern id of each word: equal ids, equal words (within one `internEpoch()`). */
  id: Int32Array;
  /** Words by id (the intern table of the tokens' epoch): token k's folded word is `dict[id[k]]`, lowercase,
   * apostrophes removed, confusables mapped; `@email`, `@url`, `@pipe` are special. */
  dict: readonly string[];
  start: Int32Array;
  end: Int32Array;
  sent: Int32Array;
  line: Int32Array;
  /** Index of the token within its sentence, not counting filler words such as "please" or "now". */
  pos: Int32Array;
  /** Position within the line (fillers not counted). */
  linePos: Int32Array;
  /** 1 when the word started with a capital letter in the source text. */
  cap: Uint8Array;
  /** The intern epoch the ids belong to. */
  epoch: number;
}

/**
 * Punctuation right after token k (first non-space character within four; `=` also past one closing bracket) as a
 * character code, or 0 for none. Read on demand: only colon and equals slots and a line's last token ask.
 */
export function afterAt(t: Tokens, k: number): number {
  const text = t.text;
  const n = text.length;
  const end = t.end[k]!;
  let j = end;
  while (j < n && j < end + 4 && text.charCodeAt(j) === 0x20) j++;
  if (j >= n) return 0;
  let c = text.charCodeAt(j);
  // `(NAME)=` and `[KEY] =`: a key-value template; look past one closing bracket for the equals sign only.
  if ((c === 0x29 || c === 0x5d) && j + 1 < n) {
    let i = j + 1;
    while (i < n && i < j + 4 && text.charCodeAt(i) === 0x20) i++;
    if (text.charCodeAt(i) === 0x3d) c = 0x3d;
  }
  // : , ? ! . ; =
  return c === 0x3a || c === 0x2c || c === 0x3f || c === 0x21 || c === 0x2e || c === 0x3b || c === 0x3d ? c : 0;
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;

// Filler flags per word id (0 unknown, 1 no, 2 yes), for the one filler set last used.
let fillerSet: Set<string> | undefined;
let fillerEpoch = -1;
let fillerFlags = new Uint8Array(1024);

/** Drops the filler flags when the filler set or the intern epoch changed (once per tokenize call). */
function useFillers(fillers: Set<string>): void {
  if (fillers !== fillerSet || fillerEpoch !== internEpoch()) {
    fillerSet = fillers;
    fillerEpoch = internEpoch();
    fillerFlags.fill(0);
  }
}

/** Flag of a word not looked up yet (or beyond the table): 2 for a filler, 1 otherwise. */
function fillerFlag(fillers: Set<string>, id: number): number {
  if (id >= fillerFlags.length) {
    const bigger = new Uint8Array(Math.max(fillerFlags.length * 2, id + 1));
    bigger.set(fillerFlags);
    fillerFlags = bigger;
  }
  const f = fillers.has(internDict()[id]!) ? 2 : 1;
  fillerFlags[id] = f;
  return f;
}

const ID_URL = () => internString('@url');

/** `.` `,` `;` `:` `!` `?` `'` */
const TRAILING_PUNCTUATION: ReadonlySet<number> = new Set([0x2e, 0x2c, 0x3b, 0x3a, 0x21, 0x3f, 0x27]);

/** A quote or closing bracket ends an address, and so does Chinese or Japanese text written against it
 * ("…指向https://x.example/p的链接"): its words are the sentence's, not the path's. */
function endsUrl(c: number): boolean {
  return c === 0x22 || c === 0x29 || c === 0x3e || (c >= 0x3000 && c <= 0x303f) || isCjk(c);
}
const ID_EMAIL = () => internString('@email');
const ID_PIPE = () => internString('@pipe');

interface Scratch {
  cap: number;
  id: Int32Array;
  start: Int32Array;
  end: Int32Array;
  sent: Int32Array;
  line: Int32Array;
  pos: Int32Array;
  linePos: Int32Array;
  capital: Uint8Array;
}

/** Scratch arrays are kept up to this many tokens (about 2 MB); a longer text builds in arrays of its own. */
const SCRATCH_LIMIT = 65_536;
const none = new Int32Array(0);
let scratch: Scratch = {
  cap: 0,
  id: none,
  start: none,
  end: none,
  sent: none,
  line: none,
  pos: none,
  linePos: none,
  capital: new Uint8Array(0),
};

/** A backslash escape of a line break or a tab (`\n`, `\r`, `\t`) at i, not followed by a lowercase letter
 * ("C:\new" is a path, "\nIgnore" and "\n---" are line breaks). */
function escapedBreak(text: string, i: number): boolean {
  const e = text.charCodeAt(i + 1);
  if (e !== 0x6e && e !== 0x72 && e !== 0x74) return false;
  const next = text.charCodeAt(i + 2);
  return !(next >= 0x61 && next <= 0x7a);
}

/**
 * Splits folded text into word tokens with sentence and line numbers. `.`, `!`, `?` followed by a space, and every
 * newline, end a sentence (so `os.system` and `example.com` do not). Runs that look like an email address or a URL
 * become one `@email` / `@url` token; `|` becomes `@pipe` (shell pipelines).
 */
export function tokenize(text: string, fillers: Set<string>, meter?: Meter): Tokens {
  resetIfFull();
  useFillers(fillers);
  const t = table();
  const n = text.length;
  // Built in scratch arrays kept between calls (a token takes about four characters of text or more in most
  // scripts; doubled when not), then copied into one buffer of the exact size: nine typed arrays allocated per call
  // cost more than tokenizing a short text.
  let cap0 = Math.max(scratch.cap, (n >>> 2) + 16);
  const fresh = cap0 > scratch.cap;
  let idA = fresh ? new Int32Array(cap0) : scratch.id;
  let startA = fresh ? new Int32Array(cap0) : scratch.start;
  let endA = fresh ? new Int32Array(cap0) : scratch.end;
  let sentA = fresh ? new Int32Array(cap0) : scratch.sent;
  let lineA = fresh ? new Int32Array(cap0) : scratch.line;
  let posA = fresh ? new Int32Array(cap0) : scratch.pos;
  let linePosA = fresh ? new Int32Array(cap0) : scratch.linePos;
  let capA = fresh ? new Uint8Array(cap0) : scratch.capital;
  let count = 0;
  const grow = () => {
    cap0 *= 2;
    const g32 = (a: Int32Array) => {
      const b = new Int32Array(cap0);
      b.set(a);
      return b;
    };
    const g8 = (a: Uint8Array) => {
      const b = new Uint8Array(cap0);
      b.set(a);
      return b;
    };
    idA = g32(idA);
    startA = g32(startA);
    endA = g32(endA);
    sentA = g32(sentA);
    lineA = g32(lineA);
    posA = g32(posA);
    linePosA = g32(linePosA);
    capA = g8(capA);
  };
  let sent = 0;
  let line = 0;
  let pos = 0;
  let linePos = 0;
  let i = 0;
  const push = (id: number, start: number, end: number) => {
    if (count === cap0) grow();
    const c0 = text.charCodeAt(start);
    const k = count++;
    idA[k] = id;
    startA[k] = start;
    endA[k] = end;
    sentA[k] = sent;
    lineA[k] = line;
    posA[k] = pos;
    linePosA[k] = linePos;
    capA[k] = c0 >= 0x41 && c0 <= 0x5a ? 1 : 0;
    let filler = id < fillerFlags.length ? fillerFlags[id]! : 0;
    if (filler === 0) filler = fillerFlag(fillers, id);
    if (filler === 1) {
      pos++;
      linePos++;
    }
  };
  while (i < n) {
    if (meter) meter.steps++;
    const c = text.charCodeAt(i);
    // A space ends nothing and starts nothing; an ASCII letter other than h and w (which may start a URL) starts a
    // word: both skip the checks below.
    if (c === 0x20) {
      i++;
      continue;
    }
    const letter = (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a && (c | 0x20) !== 0x68 && (c | 0x20) !== 0x77;
    if (!letter) {
      if (c === 0x0a) {
        line++;
        sent++;
        pos = 0;
        linePos = 0;
        i++;
        continue;
      }
      if (
        ((c === 0x2e || c === 0x21 || c === 0x3f || c === 0x3b) &&
          (i + 1 >= n || isSpace(text.charCodeAt(i + 1)) || isCjk(text.charCodeAt(i + 1)))) ||
        c === 0x3002 || // 。 ideographic full stop (CJK sentences end without a space)
        c === 0xff61
      ) {
        sent++;
        pos = 0;
        i++;
        continue;
      }
      if (c === 0x5c && escapedBreak(text, i)) {
        // "\n----\nIgnore …": the "n" of an escaped newline is not the first letter of the word after it. Only a
        // separator: read as a real line break it would cut the format strings of code into lines of their own.
        i += 2;
        continue;
      }
      if (c === 0x7c) {
        push(ID_PIPE(), i, i + 1);
        // A table cell starts as a sentence does ("| Note to the summarizer: …"): the words after a pipe count from
        // 0 for the patterns anchored at a sentence start. The sentence number stays, so nothing else is cut.
        pos = 0;
        i++;
        continue;
      }
      const c1 = text.charCodeAt(i + 1) | 0x20;
      if ((c === 0x68 || c === 0x48 || c === 0x77 || c === 0x57) && (c1 === 0x74 || c1 === 0x77)) {
        // http(s):// and www. runs
        const head = text.slice(i, i + 8).toLowerCase();
        if (head.startsWith('http://') || head.startsWith('https://') || head.startsWith('www.')) {
          let j = i;
          while (j < n && !isSpace(text.charCodeAt(j)) && !endsUrl(text.charCodeAt(j))) j++;
          // Prose puts its own full stop or comma after an address ("… at https://x.example/p. Then …"): it ends the
          // sentence, not the path, as a mail client's link detection reads it.
          while (j > i + 8 && TRAILING_PUNCTUATION.has(text.charCodeAt(j - 1))) j--;
          push(ID_URL(), i, j);
          i = j;
          continue;
        }
      }
      const cp = c >= 0xd800 && c <= 0xdbff ? text.codePointAt(i)! : c;
      const isWord = cp < 65536 ? t[cp] === 1 : false;
      if (!isWord) {
        i += cp > 0xffff ? 2 : 1;
        continue;
      }
      if (cp >= 0x3005 && isCjk(cp)) {
        push(internString(text[i]!), i, i + 1);
        i++;
        continue;
      }
    }
    const start = i;
    // Words of ASCII letters only (most of them) are lowercased and hashed on the way; the others (digits, other
    // scripts, apostrophes) are built as strings and folded as before.
    let h = FNV_OFFSET;
    let ascii = true;
    while (i < n) {
      const d = text.charCodeAt(i);
      if (d >= 0x61 && d <= 0x7a) {
        h = Math.imul(h ^ d, FNV_PRIME);
        i++;
        continue;
      }
      if (d >= 0x41 && d <= 0x5a) {
        h = Math.imul(h ^ (d | 0x20), FNV_PRIME);
        i++;
        continue;
      }
      if (t[d] === 1) {
        // A CJK character ends a Latin run written against it ("AI助手"): it is a token of its own.
        if (d >= 0x3005 && isCjk(d)) break;
        ascii = false;
        i++;
        continue;
      }
      // Apostrophes inside a word are dropped ("don't" -> "dont", "user's" -> "users").
      if ((d === 0x27 || d === 0x2019) && i + 1 < n && t[text.charCodeAt(i + 1)] === 1 && i > start) {
        ascii = false;
        i++;
        continue;
      }
      break;
    }
    // name@domain.tld
    if (text.charCodeAt(i) === 0x40 && i + 1 < n && t[text.charCodeAt(i + 1)] === 1) {
      let j = i + 1;
      let dot = false;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d < 65536 && t[d] === 1) j++;
        else if ((d === 0x2e || d === 0x2d) && j + 1 < n && t[text.charCodeAt(j + 1)] === 1) {
          if (d === 0x2e) dot = true;
          j++;
        } else break;
      }
      if (dot) {
        push(ID_EMAIL(), start, j);
        i = j;
        continue;
      }
    }
    if (ascii) {
      push(internAsciiRun(text, start, i, h), start, i);
    } else {
      // Inside the run an apostrophe can only be one the loop dropped.
      let word = '';
      let chunk = start;
      for (let k = start; k < i; k++) {
        const d = text.charCodeAt(k);
        if (d === 0x27 || d === 0x2019) {
          word += text.slice(chunk, k);
          chunk = k + 1;
        }
      }
      word += text.slice(chunk, i);
      push(internString(foldWord(word.toLowerCase())), start, i);
    }
  }
  if (cap0 <= SCRATCH_LIMIT) {
    scratch = {
      cap: cap0,
      id: idA,
      start: startA,
      end: endA,
      sent: sentA,
      line: lineA,
      pos: posA,
      linePos: linePosA,
      capital: capA,
    };
  }
  if (cap0 > SCRATCH_LIMIT) {
    // Arrays of this call alone: handed out as they are, no copy.
    return {
      length: count,
      text,
      id: idA.subarray(0, count),
      dict: internDict(),
      start: startA.subarray(0, count),
      end: endA.subarray(0, count),
      sent: sentA.subarray(0, count),
      line: lineA.subarray(0, count),
      pos: posA.subarray(0, count),
      linePos: linePosA.subarray(0, count),
      cap: capA.subarray(0, count),
      epoch: internEpoch(),
    };
  }
  const buf = new ArrayBuffer(29 * count);
  const out = (a: Int32Array, k: number) => {
    const v = new Int32Array(buf, 4 * k * count, count);
    v.set(a.subarray(0, count));
    return v;
  };
  const capital = new Uint8Array(buf, 28 * count, count);
  capital.set(capA.subarray(0, count));
  return {
    length: count,
    text,
    id: out(idA, 0),
    dict: internDict(),
    start: out(startA, 1),
    end: out(endA, 2),
    sent: out(sentA, 3),
    line: out(lineA, 4),
    pos: out(posA, 5),
    linePos: out(linePosA, 6),
    cap: capital,
    epoch: internEpoch(),
  };
}
