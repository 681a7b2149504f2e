/**
 * Token automaton for phrase families.
 *
 * A pattern is a sequence of slots; each slot is a set of words (or word prefixes) and may be separated from the
 * previous slot by at most `gap` other tokens. Matching keeps, for every slot of every pattern, only the most recent
 * token that completed the slot before it: a later start can only widen the window for the next slot, so nothing is
 * lost by forgetting the older one. Per token the work is one array read by word id (the slot list of a word is
 * computed once, with a fixed number of prefix lookups), one AND per 32 patterns of the word's pattern mask with the
 * patterns made live lately, and one O(1) transition for each slot of those live patterns and each starting slot that
 * lists the word. The number of slots that list a word is a property of the pattern file, not of the input, so
 * matching is linear in the number of tokens.
 */
// The parts: types.ts (the pattern definition), slots.ts (patterns to slots), word-index.ts (each word's slot list).
// This module is the automaton that runs them over tokens.

import { internEpoch, internString } from './intern.ts';
import { buildSlots } from './matcher/slots.ts';
import type { Compiled, Match, Meter, PatternDef } from './matcher/types.ts';
import { exactWords, wordSlotIndex } from './matcher/word-index.ts';
import { afterAt, type Tokens } from './tokenizer.ts';

export type { Compiled, Match, Meter, PatternDef } from './matcher/types.ts';
export { afterAt, isCjk, type Tokens, tokenize } from './tokenizer.ts';

/** The exact vocabulary of compiled patterns (the words typo tolerance reads slips of). */
export function patternVocabulary(patterns: PatternDef[], lexicons: Record<string, string[]>): Set<string> {
  return exactWords(buildSlots(patterns, lexicons).slotWords);
}

/** Number of set bits of a 32-bit integer. */
function popcount(v: number): number {
  const a = v - ((v >>> 1) & 0x55555555);
  const b = (a & 0x33333333) + ((a >>> 2) & 0x33333333);
  return Math.imul((b + (b >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** The character a slot's word must be followed by, by its slotColon code: none, ':', '=', ','. */
const PUNCTUATION_AFTER = [0, 0x3a, 0x3d, 0x2c];

export function compile(
  patterns: PatternDef[],
  lexicons: Record<string, string[]>,
  fillerWords: string[] = [],
  realWords?: ReadonlySet<string>,
): Compiled {
  const { slots, slotWords, states } = buildSlots(patterns, lexicons);
  const fillers = new Set(fillerWords);
  const n = Math.max(states, 1);
  const slotPattern = Int32Array.from(slots.map((s) => s.pattern));
  const slotRead = Int32Array.from(slots.map((s) => s.read));
  const slotWrite = Int32Array.from(slots.map((s) => s.write));
  const slotGap = Int32Array.from(slots.map((s) => s.gapBefore));
  const slotAnchor = Uint8Array.from(slots.map((s) => (s.anchor === 'sentence' ? 1 : s.anchor === 'line' ? 2 : 0)));
  const slotCross = Uint8Array.from(slots.map((s) => (s.cross ? 1 : 0)));
  // Widest gap a continuation slot of each pattern allows, and of all patterns.
  const patternGap = new Int32Array(patterns.length);
  for (const s of slots) if (s.read >= 0) patternGap[s.pattern] = Math.max(patternGap[s.pattern]!, s.gapBefore);
  const maxGap = Math.max(0, ...patternGap);
  // Widest gap of the slots that read each state: a state made live at token w can be stepped on up to w + gap + 1.
  // Inside a phrase ("the_villain") it is 0, so a common first word keeps its pattern live for one token only.
  const stateGap = new Int32Array(n);
  for (const s of slots) if (s.read >= 0) stateGap[s.read] = Math.max(stateGap[s.read]!, s.gapBefore);
  const maskWords = (patterns.length + 31) >>> 5;

  const index = wordSlotIndex(slots, slotWords, patterns, maskWords, realWords);
  const slotColon = index.slotColon;

  // waitSince[state] holds base + the token index that made the state live. Each call starts `base` more than
  // maxGap + 1 past every index the previous call stored, so an old entry fails the gap test without the array being
  // cleared (an allocation and fill of every state per call, which dominated short texts).
  const FAR = -(2 ** 30);
  const waitSince = new Int32Array(n).fill(FAR);
  const chainStart = new Int32Array(n);
  let base = 0;
  // Per-call state, kept between calls (reset at the start of each): `liveUntil[p]` (the last token at which a live
  // state of p can still be stepped on) means something only while p's bit is set in `live`, `inBlock[p]` only while
  // `blockOf[p]` is the current block.
  const live = new Int32Array(maskWords);
  const liveUntil = new Int32Array(patterns.length);
  const inBlock = new Int32Array(patterns.length);
  const blockOf = new Int32Array(patterns.length);

  const match = (tokens: Tokens, meter?: Meter, perBlock = 4, block = 80): Match[] => {
    // Tokens from before the intern table was last emptied carry stale ids: their words are interned again.
    const wordId = tokens.epoch === internEpoch() ? tokens.id : tokens.id.map((id) => internString(tokens.dict[id]!));
    index.sync();
    if (base > 2 ** 29 - tokens.length) {
      waitSince.fill(FAR);
      base = 0;
    }
    const at = base;
    base += tokens.length + maxGap + 2;
    // Patterns with a state that can still be stepped on (a bit each), and until when: a continuation slot of a
    // pattern none of whose states can still be continued cannot step, so its whole group of slots is skipped.
    live.fill(0);
    blockOf.fill(-1);
    const out: Match[] = [];
    const { cap: capital, sent, pos, linePos, dict, id: ownId } = tokens;
    for (let k = 0; k < tokens.length; k++) {
      if (meter) meter.steps++;
      const word = wordId[k]!;
      const cap = index.useCap && capital[k] === 1;
      let o = index.cached(word, cap);
      if (o < 0) o = index.add(word, dict[ownId[k]!]!, cap, meter);
      const list = index.pool();
      // Most words of prose fill no slot at all ("budget", "library"): nothing to step.
      if (list[o + 1] === 0) continue;
      const groups = o + index.head;
      const ids = groups + list[o]!;
      const idsEnd = ids + list[o + 1]!;
      // Ranges of the ids to run: the groups of the live patterns that list this word, found from the set bits of
      // (word's mask & live) one mask word at a time, highest pattern first as the groups are stored; then the
      // starting slots. Patterns the word lists but none of whose states is live cost nothing.
      let x = maskWords - 1;
      let bits = 0;
      let wordBits = 0;
      let maskAt = 0;
      let blockStart = 0;
      let starts = true;
      let j = 0;
      let jEnd = 0;
      for (;;) {
        if (j >= jEnd) {
          if (bits === 0) {
            for (; x >= 0; x--) {
              bits = list[o + 3 + x]! & live[x]!;
              if (bits !== 0) break;
            }
            if (x >= 0) {
              wordBits = list[o + 3 + x]!;
              blockStart = groups + list[o + 3 + maskWords + x]!;
              maskAt = x--;
            }
          }
          if (bits !== 0) {
            if (meter) meter.steps++;
            const b = 31 - Math.clz32(bits);
            const bit = 1 << b;
            bits ^= bit;
            const p = (maskAt << 5) | b;
            if (k > liveUntil[p]!) {
              live[maskAt]! &= ~bit;
              continue;
            }
            const g = blockStart + 3 * popcount((wordBits >>> b) >>> 1);
            j = ids + list[g + 1]!;
            jEnd = ids + list[g + 2]!;
            continue;
          }
          if (starts) {
            starts = false;
            j = ids + list[o + 2]!;
            jEnd = idsEnd;
            continue;
          }
          break;
        }
        const id = list[j++]!;
        if (meter) meter.steps++;
        const colon = slotColon[id]!;
        if (colon !== 0 && afterAt(tokens, k) !== PUNCTUATION_AFTER[colon]) continue;
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
          // Alternatives that reach one state at the same token ("I want you to" and "want you to") keep the earlier
          // start, so the marker is the whole phrase whatever order the slots run in.
          if (waitSince[write] !== at + k) {
            waitSince[write] = at + k;
            chainStart[write] = start;
          } else if (start < chainStart[write]!) chainStart[write] = start;
          const until = k + stateGap[write]! + 1;
          const bit = 1 << (p & 31);
          if ((live[p >>> 5]! & bit) === 0 || until > liveUntil[p]!) liveUntil[p] = until;
          live[p >>> 5]! |= bit;
        }
      }
    }
    return out;
  };

  return { patterns, lexicons, fillers, match };
}
