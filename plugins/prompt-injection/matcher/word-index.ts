// The slot list of each word: which slots a word fills (exact words, prefixes, suffixes, capitalised names), sorted
// for the automaton and stored once per interned word id in one pool.
import { internCount, internEpoch } from '../intern.ts';
import type { Slot } from './slots.ts';
import type { Meter, PatternDef } from './types.ts';
import { typoIndex } from './typos.ts';

export interface WordSlotIndex {
  /** Length of a list's head (counts, the pattern mask and the group offsets by mask word) before its groups. */
  head: number;
  /** Whether any slot reads `@cap` (only then does a capitalised word need its own list). */
  useCap: boolean;
  /** Per slot: 1 when the word must be followed by a colon, 2 by an equals sign, 3 by a comma. */
  slotColon: Uint8Array;
  /** Empties the lists when the intern table was emptied, and makes room for every id handed out so far. */
  sync(): void;
  /** Offset of the word's list in `pool()`, or -1 when not computed yet. */
  cached(wordId: number, cap: boolean): number;
  /** Computes and stores the list of a word first seen; returns its offset. */
  add(wordId: number, word: string, cap: boolean, meter?: Meter): number;
  /** The pool (replaced when it grows: read it after `add`). */
  pool(): Int32Array;
}

/**
 * A slot's word as written in patterns.json: the word itself, the punctuation it must be followed by (1 colon,
 * 2 equals sign, 3 comma), and whether it is `@cap`, a `*suffix`, a `prefix*` or an exact word.
 */
export function parseSlotWord(word: string): { w: string; after: number; kind: 'cap' | 'suffix' | 'prefix' | 'exact' } {
  let w = word;
  let after = 0;
  const last = w.length > 1 ? w[w.length - 1] : '';
  if (last === ':' || last === '=' || last === ',') {
    w = w.slice(0, -1);
    after = last === ':' ? 1 : last === '=' ? 2 : 3;
  }
  if (w === '@cap') return { w, after, kind: 'cap' };
  if (w.startsWith('*') && w.length > 1) return { w: w.slice(1), after, kind: 'suffix' };
  if (w.endsWith('*') && w.length > 1) return { w: w.slice(0, -1), after, kind: 'prefix' };
  return { w, after, kind: 'exact' };
}

/** The exact words of the slots: the vocabulary that typo tolerance reads slips of. */
export function exactWords(slotWords: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const word of slotWords) {
    const { w, kind } = parseSlotWord(word);
    if (kind === 'exact') out.add(w);
  }
  return out;
}

export function wordSlotIndex(
  slots: readonly Slot[],
  slotWords: readonly string[],
  patterns: readonly PatternDef[],
  maskWords: number,
  realWords?: ReadonlySet<string>,
): WordSlotIndex {
  const exact = new Map<string, number[]>();
  const prefix = new Map<string, number[]>();
  const prefixLens = new Set<number>();
  const suffix = new Map<string, number[]>();
  const suffixLens = new Set<number>();
  const colonSlots = new Set<number>();
  const equalsSlots = new Set<number>();
  const commaSlots = new Set<number>();
  const capSlots: number[] = [];
  slotWords.forEach((word, id) => {
    const { w, after, kind } = parseSlotWord(word);
    if (after === 1) colonSlots.add(id);
    else if (after === 2) equalsSlots.add(id);
    else if (after === 3) commaSlots.add(id);
    if (kind === 'cap') {
      capSlots.push(id);
    } else if (kind === 'suffix') {
      suffixLens.add(w.length);
      const arr = suffix.get(w) ?? [];
      arr.push(id);
      suffix.set(w, arr);
    } else if (kind === 'prefix') {
      prefixLens.add(w.length);
      const arr = prefix.get(w) ?? [];
      arr.push(id);
      prefix.set(w, arr);
    } else {
      const arr = exact.get(w) ?? [];
      arr.push(id);
      exact.set(w, arr);
    }
  });
  const lens = [...prefixLens].sort((a, b) => a - b);
  const sufLens = [...suffixLens].sort((a, b) => a - b);
  const slotColon = Uint8Array.from(
    slots.map((_, id) => (colonSlots.has(id) ? 1 : equalsSlots.has(id) ? 2 : commaSlots.has(id) ? 3 : 0)),
  );
  // Slot lists per word id (tokenizer.ts interns words), computed on first sight and kept for the intern epoch: the
  // table is bounded there, so a flood of random words cannot grow these without limit.
  const excluded = patterns.map((p) => (p.exclude ? new Set(p.exclude) : undefined));
  // A word outside the vocabulary that is one slip from a vocabulary word fills that word's exact slots (typos.ts).
  const typos = typoIndex(exact.keys(), realWords);

  const slotsOf = (w: string, cap: boolean, meter?: Meter): number => {
    const ids: number[] = [];
    // A capitalised word also fills the `@cap` slots; merged into one list so the descending-`read` order holds.
    if (cap) ids.push(...capSlots);
    const ex = exact.get(w);
    if (ex) ids.push(...ex);
    else for (const near of typos.near(w, meter)) ids.push(...exact.get(near)!);
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
    // States grow with the pattern index, so the groups come in descending pattern order and those of one mask word
    // are consecutive: blockStart[x] is the offset of the first group of mask word x (its highest pattern), from
    // which the automaton finds a live pattern's group by counting the word's higher patterns in that mask word.
    const blockStart = new Array<number>(maskWords).fill(0);
    for (let g = 0; g < groups.length; g += 3) {
      if (g > 0 && groups[g]! >= groups[g - 3]!) throw new Error('slot groups are not in descending pattern order');
      if (g === 0 || groups[g]! >>> 5 !== groups[g - 3]! >>> 5) blockStart[groups[g]! >>> 5] = g;
    }
    return store([groups.length, sorted.length, contEnd, ...mask, ...blockStart, ...groups, ...sorted]);
  };
  // The slot lists of the words seen so far, one after another in `pool` (one contiguous read per token, where
  // objects and typed arrays per word were pointer chases that missed the cache over a large vocabulary). A list at
  // offset o: [groups G × 3, ids N, contEnd, mask × maskWords, blockStart × maskWords, groups (pattern, from, to)…,
  // ids…]; from, to and contEnd index the ids, blockStart the groups.
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
  const HEAD = 3 + 2 * maskWords;
  // listOf[id] / capListOf[id]: 1 + offset of the word's list in `pool`, 0 when not computed yet.
  let listOf = new Int32Array(0);
  let capListOf = new Int32Array(0);
  let cacheEpoch = -1;
  const useCap = capSlots.length > 0;

  return {
    head: HEAD,
    useCap,
    slotColon,
    sync() {
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
    },
    cached: (wordId, cap) => (cap ? capListOf : listOf)[wordId]! - 1,
    add(wordId, word, cap, meter) {
      const o = slotsOf(word, cap, meter);
      (cap ? capListOf : listOf)[wordId] = o + 1;
      return o;
    },
    pool: () => pool,
  };
}
