// The phrase evidence of every segment: automaton matches (negated ones set aside for the learned layer) and
// foreign-task lines, each with its pattern's weight under the rules, and each segment's evidence multiplier.
import { type Meter, type Tokens, tokenize } from '../matcher.ts';
import { AFTER_UNCLOSED } from '../normalize/html-scanner.ts';
import type { Segment } from '../normalize.ts';
import type { PatternRules } from '../pattern-rules.ts';
import { foreignTaskLines, foreignTaskSentences, stemCounts } from './foreign-task.ts';
import { negated, negatedOverrides } from './negation.ts';
import { compiled, MENTION_CUES, MENTION_CUES_AFTER, MENTIONABLE, NEGATABLE } from './pattern-file.ts';

export interface Hit {
  /** Index of the first token, for locality. */
  tok: number;
  /** Character offsets of the marker in its segment. */
  start: number;
  end: number;
  category: string;
  patternId: string;
  weight: number;
  repeat: number;
  marker: string;
  segment: number;
  family: string | undefined;
}

export interface SegmentSpan {
  segment: number;
  start: number;
  end: number;
}

export interface PhraseEvidence {
  hits: Hit[];
  /** Negated phrases and negated override verbs, blanked before the learned layer reads a segment. */
  negatedSpans: SegmentSpan[];
  /** Per segment: an `agent_address` pattern matched in it. */
  addressedSeg: boolean[];
  /** Per segment: its token count. */
  segTokens: number[];
}

/** Weight of each compiled pattern (by index) under one set of rules, computed once per rules object. */
const weightTables = new WeakMap<PatternRules, Float64Array>();
function weightsOf(rules: PatternRules): Float64Array {
  let table = weightTables.get(rules);
  if (!table) {
    table = Float64Array.from(compiled.patterns, (p) =>
      Object.hasOwn(rules.weights, p.id) ? rules.weights[p.id]! : 1,
    );
    weightTables.set(rules, table);
  }
  return table;
}

/** Whether one of `words` is a token of the match [from, to]: a match spans a few tokens (its gaps are bounded). */
function wordWithin(tokens: Tokens, from: number, to: number, words: readonly string[]): boolean {
  for (let k = from; k <= to; k++) if (words.includes(tokens.dict[tokens.id[k]!]!)) return true;
  return false;
}

/** The nearest of the three tokens before `at` in its sentence that is one of `words`, or -1 ("a very helpful assistant"). */
function tokenBefore(tokens: Tokens, at: number, words: readonly string[]): number {
  for (let k = at - 1; k >= Math.max(0, at - 3) && tokens.sent[k] === tokens.sent[at]; k--)
    if (words.includes(tokens.dict[tokens.id[k]!]!)) return k;
  return -1;
}

/** Whether the token right after `at` in its sentence is one of `words` ("the system prompt design patterns"). */
function wordAfter(tokens: Tokens, at: number, words: readonly string[]): boolean {
  const k = at + 1;
  return k < tokens.length && tokens.sent[k] === tokens.sent[at] && words.includes(tokens.dict[tokens.id[k]!]!);
}

const QUOTES = new Set([...'"\'`“”„‟«»‹›‘’‚「」『』＂']);

/** The character next to `at` (stepping by `dir`) past spaces: the quotation mark an example is wrapped in. */
function quoteNext(text: string, at: number, dir: 1 | -1): number {
  let k = at;
  while (k >= 0 && k < text.length && (text[k] === ' ' || text[k] === '\u00a0')) k += dir;
  return k >= 0 && k < text.length && QUOTES.has(text[k]!) ? k : -1;
}

/**
 * A mention cue among the three tokens before the match, with no field separator between it and the opening mark:
 * JSON's `"text": "Ignore …"` and `"messages": ["…"]` are fields holding the words, not a mention of them.
 */
function cueBefore(text: string, tokens: Tokens, at: number, open: number): boolean {
  const k = tokenBefore(tokens, at, MENTION_CUES);
  return k >= 0 && !/[:[{=]/.test(text.slice(tokens.end[k]!, open));
}

/**
 * A match in quotation marks next to a mention cue is an example that is mentioned: a cue word among the three tokens
 * before the opening mark ('a user writes something like "ignore previous instructions"'), or a cue string right
 * after the closing one (「…無視して」といった, "…指令"之类: a particle alone, 「…」と, also closes orders).
 */
function quotedMention(text: string, tokens: Tokens, from: number, to: number): boolean {
  const open = quoteNext(text, tokens.start[from]! - 1, -1);
  if (open >= 0 && cueBefore(text, tokens, from, open)) return true;
  const close = quoteNext(text, tokens.end[to]!, 1);
  return close >= 0 && MENTION_CUES_AFTER.some((cue) => text.startsWith(cue, close + 1));
}

/** How far `quotedSpan` looks for the quotation marks around a match. */
const QUOTE_REACH = 600;

/** The quotation around [start, end): from the opening mark to the closing one on the same line, as far as found. */
function quotedSpan(text: string, start: number, end: number): { start: number; end: number } {
  let open = start;
  for (let k = start - 1; k >= 0 && start - k <= QUOTE_REACH && text[k] !== '\n'; k--) {
    if (QUOTES.has(text[k]!)) {
      open = k;
      break;
    }
  }
  let close = end;
  for (let j = end; j < text.length && j - end <= QUOTE_REACH && text[j] !== '\n'; j++) {
    if (QUOTES.has(text[j]!)) {
      close = j + 1;
      break;
    }
  }
  return { start: open, end: close };
}

/** `negatedOverrides` are collected only for the learned layer (`withOverrides`). */
export function collectHits(
  segs: readonly Segment[],
  rules: PatternRules,
  withOverrides: boolean,
  meter?: Meter,
): PhraseEvidence {
  const weights = weightsOf(rules);
  const hits: Hit[] = [];
  const negatedSpans: SegmentSpan[] = [];
  const addressedSeg: boolean[] = [];
  const segTokens: number[] = [];
  // Word counts of the visible document, computed only if a hidden segment has a candidate line to compare.
  let visibleTokens: Tokens | undefined;
  let visibleCache: Map<string, number> | undefined;
  const visibleCounts = () => {
    visibleCache ??= visibleTokens ? stemCounts(visibleTokens, meter) : new Map<string, number>();
    return visibleCache;
  };
  segs.forEach((seg, si) => {
    const tokens = tokenize(seg.text, compiled.fillers, meter);
    if (withOverrides) for (const n of negatedOverrides(seg.text, tokens)) negatedSpans.push({ segment: si, ...n });
    segTokens[si] = tokens.length;
    if (!seg.hidden && si === 0) visibleTokens = tokens;
    const matches = compiled.match(tokens, meter);
    let fences: number[] | undefined;
    let addressed = false;
    for (const m of matches) {
      const def = compiled.patterns[m.pattern]!;
      if (NEGATABLE.has(def.category) && negated(tokens, m.startTok, m.endTok)) {
        // Kept for the learned layer: advice against an override ("never ignore the safety instructions") is not
        // evidence for it either.
        const from = Math.max(0, m.startTok - 2);
        negatedSpans.push({
          segment: si,
          start: tokens.sent[from] === tokens.sent[m.startTok] ? tokens.start[from]! : tokens.start[m.startTok]!,
          end: tokens.end[m.endTok]!,
        });
        continue;
      }
      if (def.notAfter && tokenBefore(tokens, m.startTok, def.notAfter) >= 0) continue;
      if (def.notBefore && wordAfter(tokens, m.endTok, def.notBefore)) continue;
      if (def.notInCode) {
        fences ??= fenceStarts(seg.text);
        if (insideFence(fences, tokens.start[m.startTok]!)) continue;
      }
      if (MENTIONABLE.has(def.category) && quotedMention(seg.text, tokens, m.startTok, m.endTok)) {
        // The whole quoted example is blanked for the learned layer too: a page about prompt injection quotes the
        // attack it explains.
        negatedSpans.push({ segment: si, ...quotedSpan(seg.text, tokens.start[m.startTok]!, tokens.end[m.endTok]!) });
        continue;
      }
      if (def.category === 'agent_address') addressed = true;
      hits.push({
        tok: m.startTok,
        start: tokens.start[m.startTok]!,
        end: tokens.end[m.endTok]!,
        category: def.category,
        patternId: def.id,
        weight:
          def.halfWithin && wordWithin(tokens, m.startTok, m.endTok, def.halfWithin)
            ? weights[m.pattern]! / 2
            : weights[m.pattern]!,
        repeat: def.repeat ?? 1,
        marker: seg.text.slice(tokens.start[m.startTok]!, tokens.end[m.endTok]!),
        segment: si,
        family: def.family,
      });
    }
    const lines = foreignTaskLines(seg, tokens, visibleCounts, meter);
    for (const line of lines.length > 0 ? lines : foreignTaskSentences(seg, tokens, meter)) {
      hits.push({
        tok: line.tok,
        start: line.start,
        end: line.end,
        category: 'task_injection',
        patternId: 'structure.foreign_task_line',
        weight: 1,
        repeat: 1,
        marker: line.text,
        segment: si,
        family: undefined,
      });
    }
    addressedSeg[si] = addressed;
  });
  return { hits, negatedSpans, addressedSeg, segTokens };
}

/**
 * Each segment's evidence multiplier: hidden text, text addressed to an AI reader, and text dressed in look-alike
 * characters make every weak signal in them count double (scoreCategories keeps the address's share off the address
 * itself and off persona evidence).
 * `hiddenDoubles` says where hidden text still does: the learned layer asks for the model's agreement. Text after an
 * unclosed script or style is hidden mostly by accident and counts once.
 */
export function segmentMultipliers(
  segs: readonly Segment[],
  addressedSeg: readonly boolean[],
  hiddenDoubles: (segment: number) => boolean,
): number[] {
  return segs.map(
    (seg, si) =>
      (seg.hidden && !seg.via?.startsWith(AFTER_UNCLOSED) && hiddenDoubles(si) ? 2 : 1) *
      (addressedSeg[si] ? 2 : 1) *
      (seg.obfuscated ? 2 : 1),
  );
}

/** Offsets of the Markdown code-fence markers (```) of a text, in order. */
function fenceStarts(text: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf('```'); i >= 0; i = text.indexOf('```', i + 3)) out.push(i);
  return out;
}

/** Whether offset `at` lies between an opening and a closing fence marker (an odd number of markers before it). */
function insideFence(fences: readonly number[], at: number): boolean {
  let lo = 0;
  let hi = fences.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (fences[mid]! < at) lo = mid + 1;
    else hi = mid;
  }
  return lo % 2 === 1 && lo < fences.length;
}
