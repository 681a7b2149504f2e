/**
 * Token automaton for phrase families.
 *
 * A pattern is a sequence of slots; each slot is a set of words (or word prefixes) and may be separated from the
 * previous slot by at most `gap` other tokens. Matching keeps, for every slot of every pattern, only the most recent
 * token that completed the slot before it: a later start can only widen the window for the next slot, so nothing is
 * lost by forgetting the older one. Per token the work is one map lookup per distinct word (cached), a fixed number of
 * prefix lookups, and one O(1) transition for each slot that lists the word. The number of slots that list a word is
 * a property of the pattern file, not of the input, so matching is linear in the number of tokens.
 */

export interface Meter {
  steps: number;
}

export interface Token {
  /** Folded word: lowercase, apostrophes removed, confusables mapped; `@email`, `@url`, `@pipe` are special. */
  w: string;
  start: number;
  end: number;
  sent: number;
  line: number;
  /** Index of the token within its sentence, not counting filler words such as "please" or "now". */
  pos: number;
  /** Position within the line (fillers not counted). */
  linePos: number;
  /** Punctuation right after the token (first non-space character; `=` also past one closing bracket), or '' for none. */
  after: string;
  /** The word started with a capital letter in the source text. */
  cap: boolean;
}

export interface PatternDef {
  id: string;
  category: string;
  /** Each element: alternatives separated by `|`; `@name` expands a lexicon; `word*` is a prefix, `*word` a suffix of a longer word; `a_b` is a phrase;
   * `word:` requires a colon right after the word, `word=` an equals sign (a closing bracket may come between:
   * `(PERSONALITY)=[…]`); `@cap` is any word written with a capital first letter (a name). */
  seq: string[];
  /** Most tokens allowed between consecutive elements (default 2). */
  gap?: number;
  /** Per-element gaps (index i = gap before element i+1). */
  gaps?: number[];
  /** Evidence weight; a category fires when the distinct patterns that matched in it sum to at least 1. */
  weight?: number;
  /** How many distinct matched phrases of this pattern count (default 1): trait lists are evidence per trait. */
  repeat?: number;
  /** Words a prefix or suffix alternative must not match ("robot" is not a coined "*bot" persona). */
  exclude?: string[];
  /** The first element must open a sentence (`sentence`) or a line (`line`), fillers aside. */
  anchor?: 'sentence' | 'line';
  /** Allow the elements to span sentence boundaries (default false). */
  crossSentence?: boolean;
  /** Cue family (see `cueRule` in patterns.json): several distinct families in one long text fire the category even
   * when the weights do not add up. */
  family?: string;
  note?: string;
}

export interface Match {
  pattern: number;
  startTok: number;
  endTok: number;
}

export interface Compiled {
  patterns: PatternDef[];
  lexicons: Record<string, string[]>;
  fillers: Set<string>;
  /** Keeps at most `perBlock` matches of each pattern per block of `block` tokens: bounded output that still
   * covers the whole input, so decoys early in a long text cannot hide a later match. */
  match(tokens: Token[], meter?: Meter, perBlock?: number, block?: number): Match[];
}

/**
 * One word position of one alternative of one element. `read` is the state the slot needs to be live (-1: the
 * pattern's first element, always live); `write` is the state it makes live (-1: the pattern matched).
 */
interface Slot {
  pattern: number;
  read: number;
  write: number;
  gapBefore: number;
  anchor: 'sentence' | 'line' | undefined;
  cross: boolean;
}

/**
 * Han, kana and CJK punctuation-free scripts have no spaces between words, so the tokenizer makes every such character
 * a token of its own and phrases are matched character by character (gaps count characters). Hangul is written with
 * spaces and stays word-based.
 */
export function isCjk(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) || // CJK unified ideographs
    (cp >= 0x3400 && cp <= 0x4dbf) || // extension A
    (cp >= 0xf900 && cp <= 0xfaff) || // compatibility ideographs
    (cp >= 0x3040 && cp <= 0x30ff) || // hiragana, katakana
    (cp >= 0x31f0 && cp <= 0x31ff) || // katakana phonetic extensions
    cp === 0x3005 // 々 (iteration mark)
  );
}

/** The token words of one alternative: `_` separates words, and each CJK character is a word of its own. */
function altWords(alt: string): string[] {
  const out: string[] = [];
  for (const part of alt.split('_')) {
    let run = '';
    for (const ch of part) {
      if (isCjk(ch.codePointAt(0)!)) {
        if (run) out.push(run);
        run = '';
        out.push(ch);
      } else run += ch;
    }
    if (run) out.push(run);
  }
  return out;
}

function expandAlternatives(element: string, lexicons: Record<string, string[]>, depth = 0): string[] {
  const out: string[] = [];
  for (const raw of element.split('|')) {
    const alt = raw.trim();
    if (alt.length === 0) continue;
    if (alt.startsWith('@') && alt.length > 1 && !['@email', '@url', '@pipe', '@cap'].includes(alt)) {
      const lex = lexicons[alt.slice(1)];
      if (!lex) throw new Error(`unknown lexicon ${alt}`);
      if (depth > 4) throw new Error(`lexicon nesting too deep at ${alt}`);
      for (const item of lex) out.push(...expandAlternatives(item, lexicons, depth + 1));
    } else {
      out.push(alt.toLowerCase());
    }
  }
  return out;
}

export function compile(
  patterns: PatternDef[],
  lexicons: Record<string, string[]>,
  fillerWords: string[] = [],
): Compiled {
  const slots: Slot[] = [];
  const slotWords: string[] = [];
  let states = 0;
  for (let p = 0; p < patterns.length; p++) {
    const def = patterns[p]!;
    if (def.seq.length === 0) throw new Error(`pattern ${def.id}: empty seq`);
    // State ids grow along the pattern, so processing a token's slots by descending `read` never lets one token
    // take two steps.
    let entry = -1;
    def.seq.forEach((el, i) => {
      const gap = i === 0 ? 0 : (def.gaps?.[i - 1] ?? def.gap ?? 2);
      const alts = [...new Set(expandAlternatives(el, lexicons))];
      if (alts.length === 0) throw new Error(`pattern ${def.id}: element ${i} is empty`);
      const lastElement = i === def.seq.length - 1;
      const next = lastElement ? -1 : states + alts.reduce((a, alt) => a + altWords(alt).length - 1, 0);
      for (const alt of alts) {
        const words = altWords(alt);
        let read = entry;
        words.forEach((w, j) => {
          const lastWord = j === words.length - 1;
          const write = lastWord ? next : states++;
          slots.push({
            pattern: p,
            read,
            write,
            gapBefore: j === 0 ? gap : 0,
            anchor: i === 0 && j === 0 ? def.anchor : undefined,
            cross: def.crossSentence === true,
          });
          slotWords.push(w);
          read = write;
        });
      }
      if (!lastElement) entry = states++;
    });
  }

  const exact = new Map<string, number[]>();
  const prefix = new Map<string, number[]>();
  const prefixLens = new Set<number>();
  const suffix = new Map<string, number[]>();
  const suffixLens = new Set<number>();
  const colonSlots = new Set<number>();
  const equalsSlots = new Set<number>();
  const capSlots: number[] = [];
  slotWords.forEach((word, id) => {
    let w = word;
    if (w.endsWith(':') && w.length > 1) {
      w = w.slice(0, -1);
      colonSlots.add(id);
    } else if (w.endsWith('=') && w.length > 1) {
      w = w.slice(0, -1);
      equalsSlots.add(id);
    }
    if (w === '@cap') {
      capSlots.push(id);
      return;
    }
    if (w.startsWith('*') && w.length > 1) {
      const suf = w.slice(1);
      suffixLens.add(suf.length);
      const arr = suffix.get(suf) ?? [];
      arr.push(id);
      suffix.set(suf, arr);
    } else if (w.endsWith('*') && w.length > 1) {
      const pre = w.slice(0, -1);
      prefixLens.add(pre.length);
      const arr = prefix.get(pre) ?? [];
      arr.push(id);
      prefix.set(pre, arr);
    } else {
      const arr = exact.get(w) ?? [];
      arr.push(id);
      exact.set(w, arr);
    }
  });
  const lens = [...prefixLens].sort((a, b) => a - b);
  const sufLens = [...suffixLens].sort((a, b) => a - b);
  const fillers = new Set(fillerWords);

  // Distinct words seen in input are few compared with tokens; the cache is bounded so a flood of random words
  // cannot grow it without limit.
  const excluded = patterns.map((p) => (p.exclude ? new Set(p.exclude) : undefined));
  const cache = new Map<string, Int32Array>();
  const capCache = new Map<string, Int32Array>();
  const EMPTY = new Int32Array(0);
  const lookup = (w: string, cap: boolean, meter?: Meter): Int32Array => {
    const hit = cap && capSlots.length > 0 ? capCache.get(w) : cache.get(w);
    if (hit) return hit;
    const ids: number[] = [];
    // A capitalised word also fills the `@cap` slots; merged into one list so the descending-`read` order holds.
    if (cap) ids.push(...capSlots);
    const ex = exact.get(w);
    if (ex) ids.push(...ex);
    for (const len of lens) {
      if (meter) meter.steps++;
      if (len > w.length) break;
      const pr = prefix.get(w.slice(0, len));
      if (pr) ids.push(...pr);
    }
    for (const len of sufLens) {
      if (meter) meter.steps++;
      // A suffix pattern names a family of coined words ("*gpt"); the bare suffix is not one of them.
      if (len >= w.length) break;
      const sf = suffix.get(w.slice(w.length - len));
      if (sf) ids.push(...sf);
    }
    const kept = ids.filter((id) => !excluded[slots[id]!.pattern]?.has(w));
    const arr =
      kept.length === 0 ? EMPTY : Int32Array.from([...new Set(kept)].sort((x, y) => slots[y]!.read - slots[x]!.read));
    const store = cap && capSlots.length > 0 ? capCache : cache;
    if (store.size > 50_000) store.clear();
    store.set(w, arr);
    return arr;
  };

  const n = Math.max(states, 1);
  const slotPattern = Int32Array.from(slots.map((s) => s.pattern));
  const slotRead = Int32Array.from(slots.map((s) => s.read));
  const slotWrite = Int32Array.from(slots.map((s) => s.write));
  const slotGap = Int32Array.from(slots.map((s) => s.gapBefore));
  const slotColon = Uint8Array.from(slots.map((_, id) => (colonSlots.has(id) ? 1 : equalsSlots.has(id) ? 2 : 0)));
  const slotAnchor = Uint8Array.from(slots.map((s) => (s.anchor === 'sentence' ? 1 : s.anchor === 'line' ? 2 : 0)));
  const slotCross = Uint8Array.from(slots.map((s) => (s.cross ? 1 : 0)));

  const match = (tokens: Token[], meter?: Meter, perBlock = 4, block = 80): Match[] => {
    const waitSince = new Int32Array(n).fill(-1);
    const chainStart = new Int32Array(n).fill(-1);
    const inBlock = new Int32Array(patterns.length);
    const blockOf = new Int32Array(patterns.length).fill(-1);
    const out: Match[] = [];
    for (let k = 0; k < tokens.length; k++) {
      const tok = tokens[k]!;
      if (meter) meter.steps++;
      const ids = lookup(tok.w, tok.cap, meter);
      for (let j = 0; j < ids.length; j++) {
        const id = ids[j]!;
        if (meter) meter.steps++;
        if (slotColon[id] === 1 && tok.after !== ':') continue;
        if (slotColon[id] === 2 && tok.after !== '=') continue;
        let start: number;
        const read = slotRead[id]!;
        if (read < 0) {
          const anchor = slotAnchor[id];
          if (anchor === 1 && tok.pos !== 0) continue;
          if (anchor === 2 && tok.linePos !== 0) continue;
          start = k;
        } else {
          const w = waitSince[read]!;
          if (w < 0 || k - w - 1 > slotGap[id]!) continue;
          if (slotCross[id] === 0 && tokens[w]!.sent !== tok.sent) continue;
          start = chainStart[read]!;
        }
        const write = slotWrite[id]!;
        if (write < 0) {
          const p = slotPattern[id]!;
          const b = Math.floor(k / block);
          if (blockOf[p] !== b) {
            blockOf[p] = b;
            inBlock[p] = 0;
          }
          if (inBlock[p]! < perBlock) {
            inBlock[p]!++;
            out.push({ pattern: p, startTok: start, endTok: k });
          }
        } else {
          waitSince[write] = k;
          chainStart[write] = start;
        }
      }
    }
    return out;
  };

  return { patterns, lexicons, fillers, match };
}

// ---------------------------------------------------------------------------------------------------------------
// Tokenizer

let wordTable: Uint8Array | undefined;

/** 1 for letters, marks and digits in the BMP. Built once; a per-character regex test would dominate the run time. */
function table(): Uint8Array {
  if (wordTable) return wordTable;
  const t = new Uint8Array(65536);
  const re = /[\p{L}\p{M}\p{N}]/u;
  for (let cp = 0; cp < 65536; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    if (cp < 128) {
      t[cp] = (cp >= 0x30 && cp <= 0x39) || (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a) ? 1 : 0;
    } else if (re.test(String.fromCharCode(cp))) {
      t[cp] = 1;
    }
  }
  wordTable = t;
  return t;
}

/** Latin look-alikes from Cyrillic and Greek, applied only inside tokens that also contain ASCII letters. */
const CONFUSABLE: Record<string, string> = {
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  һ: 'h',
  ԛ: 'q',
  ԝ: 'w',
  ɡ: 'g',
  ο: 'o',
  α: 'a',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ρ: 'p',
  τ: 't',
  υ: 'u',
};

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };

function foldWord(w: string): string {
  let ascii = false;
  let other = false;
  let digit = false;
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    if (c >= 0x61 && c <= 0x7a) ascii = true;
    else if (c >= 0x30 && c <= 0x39) digit = true;
    else if (c >= 128) other = true;
  }
  if (!ascii || (!other && !digit)) return w;
  let out = '';
  for (const ch of w) out += CONFUSABLE[ch] ?? (digit ? (LEET[ch] ?? ch) : ch);
  return out;
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;

/**
 * Splits folded text into word tokens with sentence and line numbers. `.`, `!`, `?` followed by a space, and every
 * newline, end a sentence (so `os.system` and `example.com` do not). Runs that look like an email address or a URL
 * become one `@email` / `@url` token; `|` becomes `@pipe` (shell pipelines).
 */
export function tokenize(text: string, fillers: Set<string>, meter?: Meter): Token[] {
  const t = table();
  const tokens: Token[] = [];
  let sent = 0;
  let line = 0;
  let pos = 0;
  let linePos = 0;
  let i = 0;
  const n = text.length;
  const push = (w: string, start: number, end: number) => {
    let after = '';
    let j = end;
    while (j < n && j < end + 4 && text.charCodeAt(j) === 0x20) j++;
    if (j < n) {
      let c = text[j]!;
      // `(NAME)=` and `[KEY] =`: a key-value template; look past one closing bracket for the equals sign only.
      if ((c === ')' || c === ']') && j + 1 < n) {
        let k = j + 1;
        while (k < n && k < j + 4 && text.charCodeAt(k) === 0x20) k++;
        if (text[k] === '=') c = '=';
      }
      if (c === ':' || c === ',' || c === '?' || c === '!' || c === '.' || c === ';' || c === '=') after = c;
    }
    const c0 = text.charCodeAt(start);
    tokens.push({ w, start, end, sent, line, pos, linePos, after, cap: c0 >= 0x41 && c0 <= 0x5a });
    if (!fillers.has(w)) {
      pos++;
      linePos++;
    }
  };
  while (i < n) {
    if (meter) meter.steps++;
    const c = text.charCodeAt(i);
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
    if (c === 0x7c) {
      push('@pipe', i, i + 1);
      i++;
      continue;
    }
    const c1 = text.charCodeAt(i + 1) | 0x20;
    if ((c === 0x68 || c === 0x48 || c === 0x77 || c === 0x57) && (c1 === 0x74 || c1 === 0x77)) {
      // http(s):// and www. runs
      const head = text.slice(i, i + 8).toLowerCase();
      if (head.startsWith('http://') || head.startsWith('https://') || head.startsWith('www.')) {
        let j = i;
        while (j < n && !isSpace(text.charCodeAt(j)) && text.charCodeAt(j) !== 0x22 && text.charCodeAt(j) !== 0x29) {
          j++;
        }
        push('@url', i, j);
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
      push(text[i]!, i, i + 1);
      i++;
      continue;
    }
    const start = i;
    let word = '';
    let chunk = i;
    // Most words are plain lowercase ASCII; only the others pay for lowercasing and look-alike folding.
    let plain = true;
    while (i < n) {
      const d = text.charCodeAt(i);
      if (d >= 0x61 && d <= 0x7a) {
        i++;
        continue;
      }
      if (d < 65536 && t[d] === 1) {
        // A CJK character ends a Latin run written against it ("AI助手"): it is a token of its own.
        if (d >= 0x3005 && isCjk(d)) break;
        plain = false;
        i++;
        continue;
      }
      // Apostrophes inside a word are dropped ("don't" -> "dont", "user's" -> "users").
      if ((d === 0x27 || d === 0x2019) && i + 1 < n && t[text.charCodeAt(i + 1)] === 1 && i > start) {
        word += text.slice(chunk, i);
        i++;
        chunk = i;
        continue;
      }
      break;
    }
    word += text.slice(chunk, i);
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
        push('@email', start, j);
        i = j;
        continue;
      }
    }
    push(plain ? word : foldWord(word.toLowerCase()), start, i);
  }
  return tokens;
}
