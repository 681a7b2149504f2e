/**
 * Token automaton for phrase families.
 *
 * A pattern is a sequence of slots; each slot is a set of words (or word prefixes) and may be separated from the
 * previous slot by at most `gap` other tokens. Matching keeps, for every slot of every pattern, only the most recent
 * token that completed the slot before it: a later start can only widen the window for the next slot, so nothing is
 * lost by forgetting the older one. Per token the work is one array read by word id (the slot list of a word is
 * computed once, with a fixed number of prefix lookups), and one O(1) transition for each slot that lists the word. The number of slots that list a word is
 * a property of the pattern file, not of the input, so matching is linear in the number of tokens.
 */

import { internCount, internEpoch, internString } from './intern.ts';
import { afterAt, isCjk, type Tokens } from './tokenizer.ts';

export { afterAt, isCjk, type Tokens, tokenize } from './tokenizer.ts';

export interface Meter {
  steps: number;
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
  match(tokens: Tokens, meter?: Meter, perBlock?: number, block?: number): Match[];
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

  // Slot lists per word id (tokenizer.ts interns words), computed on first sight and kept for the intern epoch: the
  // table is bounded there, so a flood of random words cannot grow these without limit.
  const excluded = patterns.map((p) => (p.exclude ? new Set(p.exclude) : undefined));
  const n = Math.max(states, 1);
  const slotPattern = Int32Array.from(slots.map((s) => s.pattern));
  const slotRead = Int32Array.from(slots.map((s) => s.read));
  const slotWrite = Int32Array.from(slots.map((s) => s.write));
  const slotGap = Int32Array.from(slots.map((s) => s.gapBefore));
  const slotColon = Uint8Array.from(slots.map((_, id) => (colonSlots.has(id) ? 1 : equalsSlots.has(id) ? 2 : 0)));
  const slotAnchor = Uint8Array.from(slots.map((s) => (s.anchor === 'sentence' ? 1 : s.anchor === 'line' ? 2 : 0)));
  const slotCross = Uint8Array.from(slots.map((s) => (s.cross ? 1 : 0)));
  // Widest gap a continuation slot of each pattern allows, and of all patterns.
  const patternGap = new Int32Array(patterns.length);
  for (const s of slots) if (s.read >= 0) patternGap[s.pattern] = Math.max(patternGap[s.pattern]!, s.gapBefore);
  const maxGap = Math.max(0, ...patternGap);
  const maskWords = (patterns.length + 31) >>> 5;

  const slotsOf = (w: string, cap: boolean, meter?: Meter): number => {
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
    const sorted = [...new Set(kept)].sort((x, y) => slots[y]!.read - slots[x]!.read);
    // Descending `read` puts the continuation slots first, grouped by pattern (a pattern's states are consecutive
    // ids), and the slots that start a pattern (read −1) last.
    let contEnd = 0;
    while (contEnd < sorted.length && slots[sorted[contEnd]!]!.read >= 0) contEnd++;
    const groups: number[] = [];
    const mask = new Array<number>(maskWords).fill(0);
    for (let j = 0; j < contEnd; j++) {
      const p = slots[sorted[j]!]!.pattern;
      if (groups.length === 0 || groups[groups.length - 3] !== p) groups.push(p, j, j + 1);
      else groups[groups.length - 1] = j + 1;
      mask[p >>> 5]! |= 1 << (p & 31);
    }
    return store([groups.length, sorted.length, contEnd, ...mask, ...groups, ...sorted]);
  };
  // The slot lists of the words seen so far, one after another in `pool` (one contiguous read per token, where
  // objects and typed arrays per word were pointer chases that missed the cache over a large vocabulary). A list at
  // offset o: [groups G × 3, ids N, contEnd, mask × maskWords, groups (pattern, from, to)…, ids…]; from, to and
  // contEnd index the ids.
  let pool = new Int32Array(1 << 14);
  let poolUsed = 0;
  const store = (list: number[]): number => {
    if (poolUsed + list.length > pool.length) {
      const bigger = new Int32Array(Math.max(2 * pool.length, poolUsed + list.length));
      bigger.set(pool.subarray(0, poolUsed));
      pool = bigger;
    }
    pool.set(list, poolUsed);
    poolUsed += list.length;
    return poolUsed - list.length;
  };
  const HEAD = 3 + maskWords;
  // listOf[id] / capListOf[id]: 1 + offset of the word's list in `pool`, 0 when not computed yet.
  let listOf = new Int32Array(0);
  let capListOf = new Int32Array(0);
  let cacheEpoch = -1;
  const useCap = capSlots.length > 0;

  // waitSince[state] holds base + the token index that made the state live. Each call starts `base` more than
  // maxGap + 1 past every index the previous call stored, so an old entry fails the gap test without the array being
  // cleared (an allocation and fill of every state per call, which dominated short texts).
  const FAR = -(2 ** 30);
  const waitSince = new Int32Array(n).fill(FAR);
  const chainStart = new Int32Array(n);
  let base = 0;
  // Per-call state, kept between calls (reset at the start of each): `lastLive[p]` means something only while p's
  // bit is set in `live`, `inBlock[p]` only while `blockOf[p]` is the current block.
  const live = new Int32Array(maskWords);
  const lastLive = new Int32Array(patterns.length);
  const inBlock = new Int32Array(patterns.length);
  const blockOf = new Int32Array(patterns.length);

  const match = (tokens: Tokens, meter?: Meter, perBlock = 4, block = 80): Match[] => {
    // Tokens from before the intern table was last emptied carry stale ids: their words are interned again.
    const wordId = tokens.epoch === internEpoch() ? tokens.id : tokens.id.map((id) => internString(tokens.dict[id]!));
    if (cacheEpoch !== internEpoch()) {
      cacheEpoch = internEpoch();
      poolUsed = 0;
      listOf = new Int32Array(Math.max(1024, internCount() * 2));
      capListOf = new Int32Array(listOf.length);
    }
    if (listOf.length < internCount()) {
      const size = internCount() * 2;
      const a = new Int32Array(size);
      a.set(listOf);
      listOf = a;
      const b = new Int32Array(size);
      b.set(capListOf);
      capListOf = b;
    }
    if (base > 2 ** 29 - tokens.length) {
      waitSince.fill(FAR);
      base = 0;
    }
    const at = base;
    base += tokens.length + maxGap + 2;
    // Patterns with a state made live lately (a bit each), and when: a continuation slot of a pattern none of whose
    // states was made live within its widest gap cannot step, so its whole group of slots is skipped.
    live.fill(0);
    blockOf.fill(-1);
    const out: Match[] = [];
    const { cap: capital, sent, pos, linePos, dict, id: ownId } = tokens;
    for (let k = 0; k < tokens.length; k++) {
      if (meter) meter.steps++;
      const word = wordId[k]!;
      const cap = useCap && capital[k] === 1;
      const table = cap ? capListOf : listOf;
      let o = table[word]! - 1;
      if (o < 0) {
        o = slotsOf(dict[ownId[k]!]!, cap, meter);
        table[word] = o + 1;
      }
      const list = pool;
      const groupsEnd = o + HEAD + list[o]!;
      const ids = groupsEnd;
      const idsEnd = ids + list[o + 1]!;
      let anyLive = 0;
      for (let x = 0; x < maskWords; x++) anyLive |= list[o + 3 + x]! & live[x]!;
      // Ranges of the ids to run: the groups of live patterns, then the starting slots.
      let q = anyLive === 0 ? groupsEnd : o + HEAD;
      let j = 0;
      let jEnd = 0;
      for (;;) {
        if (j >= jEnd) {
          if (q < groupsEnd) {
            if (meter) meter.steps++;
            const p = list[q]!;
            j = ids + list[q + 1]!;
            jEnd = ids + list[q + 2]!;
            q += 3;
            const bit = 1 << (p & 31);
            if ((live[p >>> 5]! & bit) === 0) jEnd = j;
            else if (k - lastLive[p]! - 1 > patternGap[p]!) {
              live[p >>> 5]! &= ~bit;
              jEnd = j;
            }
            continue;
          }
          if (q === groupsEnd) {
            q++;
            j = ids + list[o + 2]!;
            jEnd = idsEnd;
            continue;
          }
          break;
        }
        const id = list[j++]!;
        if (meter) meter.steps++;
        const colon = slotColon[id]!;
        if (colon !== 0 && afterAt(tokens, k) !== (colon === 1 ? 0x3a : 0x3d)) continue;
        let start: number;
        const read = slotRead[id]!;
        if (read < 0) {
          const anchor = slotAnchor[id];
          if (anchor === 1 && pos[k] !== 0) continue;
          if (anchor === 2 && linePos[k] !== 0) continue;
          start = k;
        } else {
          const w = waitSince[read]! - at;
          if (k - w - 1 > slotGap[id]!) continue;
          if (slotCross[id] === 0 && sent[w] !== sent[k]) continue;
          start = chainStart[read]!;
        }
        const write = slotWrite[id]!;
        const p = slotPattern[id]!;
        if (write < 0) {
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
          waitSince[write] = at + k;
          chainStart[write] = start;
          lastLive[p] = k;
          live[p >>> 5]! |= 1 << (p & 31);
        }
      }
    }
    return out;
  };

  return { patterns, lexicons, fillers, match };
}
