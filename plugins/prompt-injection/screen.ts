// The screen: normalisation, the phrase automaton, negation, foreign-task lines, category scores and the learned
// layer, turned into findings. Over 400 lines on purpose: every stage reads the word sets derived from patterns.json
// here (and their per-word flags); cut apart, the stages would pass those sets to each other as parameters.
import { internCount, internEpoch } from './intern.ts';
import { afterAt, compile, type Meter, type PatternDef, type Tokens, tokenize } from './matcher.ts';
import { normalize, type Segment } from './normalize.ts';
import { checkPatternRules, type PatternRules, SHIPPED_PATTERN_RULES } from './pattern-rules.ts';
import patternFile from './patterns.json' with { type: 'json' };
import { categoryOf, type ScorerModel, scoreSegment, sigmoid } from './scorer/model.ts';

export interface InjectionFinding {
  category: string;
  marker: string;
  flag: string;
  severity: 'high' | 'low';
  hidden?: boolean;
}

export interface ScreenResult {
  findings: InjectionFinding[];
  severity: 'none' | 'low' | 'high';
}

export const INJECTION_FLAGS = [
  'agent:injected_instructions',
  'agent:credential_lure_for_agents',
  'agent:unsafe_execution_lure',
  'agent:hidden_text',
] as const;

/** A category's flag; its severity is a rule (rules/injection-patterns.json, see pattern-rules.ts). */
interface CategoryDef {
  flag: string;
  description: string;
}

interface StructureDef {
  taskVerbs: string[];
  editVerbs: string[];
  minorWords: string[];
  questionWords: string[];
  docReference: string[];
  outputWords: string[];
  stopwords: string[];
}

/**
 * Stacked weak cues: jailbreak set-ups combine several kinds of persona and rule wording (a persona, persistence,
 * a confirmation handshake, a response format, reminders) that benign prompts rarely stack. When a window holds at
 * least `minFamilies` distinct `family` values of one category, in a segment of at least `minTokens` tokens, the
 * category fires whatever the weights sum to.
 */
interface CueRule {
  minFamilies: number;
  minTokens: number;
}

interface PatternFile {
  categories: Record<string, CategoryDef>;
  cueRule: CueRule;
  negators: string[];
  negatableCategories: string[];
  fillers: string[];
  lexicons: Record<string, string[]>;
  patterns: PatternDef[];
  structure: StructureDef;
}

const file = patternFile as unknown as PatternFile;

/** Validates the data file once at load; a bad file is a programming error and must fail loudly. */
function validate(f: PatternFile): void {
  const flags = new Set<string>(INJECTION_FLAGS);
  for (const [name, c] of Object.entries(f.categories)) {
    if (!flags.has(c.flag)) throw new Error(`patterns.json: category ${name} maps to unknown flag ${c.flag}`);
  }
  for (const req of [
    'instruction_override',
    'tool_hijack',
    'credential_exfiltration',
    'unsafe_execution',
    'hidden_text',
  ]) {
    if (!f.categories[req]) throw new Error(`patterns.json: missing category ${req}`);
  }
  const ids = new Set<string>();
  for (const p of f.patterns) {
    if (ids.has(p.id)) throw new Error(`patterns.json: duplicate pattern id ${p.id}`);
    ids.add(p.id);
    if (!f.categories[p.category]) throw new Error(`patterns.json: pattern ${p.id}: unknown category ${p.category}`);
    if (p.category === 'hidden_text') throw new Error(`patterns.json: ${p.id}: hidden_text is derived, not matched`);
  }
}

validate(file);
checkPatternRules(SHIPPED_PATTERN_RULES, Object.keys(file.categories), file.patterns);

/** Throws when `rules` do not fit patterns.json (the detector calls it at boot with the ruleset's copy). */
export function checkScreenRules(rules: PatternRules): void {
  checkPatternRules(rules, Object.keys(file.categories), file.patterns);
}
const compiled = compile(file.patterns, file.lexicons, file.fillers);
const categories = file.categories;

function expandWords(list: string[]): Set<string> {
  const out = new Set<string>();
  for (const item of list) {
    if (item.startsWith('@')) for (const w of file.lexicons[item.slice(1)] ?? []) out.add(w);
    else out.add(item);
  }
  return out;
}

const CUE_RULE: CueRule = file.cueRule ?? { minFamilies: Number.POSITIVE_INFINITY, minTokens: 0 };
const NEGATORS = new Set(file.negators);
const NEGATABLE = new Set(file.negatableCategories);

/** Override verbs of every language (single words), and the Chinese/Japanese ones (matched in the text). */
const OVERRIDE_LEXICONS = ['ignore', 'ignoreDe', 'ignoreFr', 'ignoreEs', 'ignorePt'];
const OVERRIDE_VERBS = new Set(
  OVERRIDE_LEXICONS.flatMap((l) => file.lexicons[l] ?? []).filter((w) => !w.includes('_')),
);
const OVERRIDE_CJK = [...(file.lexicons.ignoreZh ?? []), ...(file.lexicons.ignoreJa ?? [])];
const CJK_NEGATORS = file.negators.filter((w) => w.length === 1 && w.charCodeAt(0) >= 0x3000);
/** The single-character CJK negators as one character class (`[]` if none: it matches nothing). */
const CJK_NEGATOR_CLASS = new RegExp(`[${CJK_NEGATORS.join('')}]`, 'g');

/** Folded word of token k. */
const word = (t: Tokens, k: number): string => t.dict[t.id[k]!]!;

// Word properties the negation checks ask of every token, cached per interned word id (tokenizer.ts).
const NEGATOR = 1;
const OVERRIDE = 2;
/** "n" + an override verb: French elision "n'ignorez" with the apostrophe dropped. */
const ELIDED_OVERRIDE = 4;
const KNOWN = 8;
// And the ones the foreign-task line checks ask of every token of a line.
/** At least three letters and not a minor word (counts towards telling a heading). */
const LONG_WORD = 16;
const DOC_WORD = 32;
/** First word of a two-word DOC_REFERENCE entry. */
const DOC_FIRST = 64;
const OUTPUT_WORD = 128;
/** "your" or "the" (an output directive names "your response", "the answer"). */
const YOUR_OR_THE = 256;
let flagEpoch = -1;
let flagsById = new Uint16Array(0);

/** The flag table covering every id handed out so far, or undefined for tokens of an older intern epoch. */
function flagTable(tokens: Tokens): Uint16Array | undefined {
  if (tokens.epoch !== internEpoch()) return undefined;
  if (flagEpoch !== internEpoch()) {
    flagEpoch = internEpoch();
    flagsById = new Uint16Array(Math.max(1024, 2 * internCount()));
  } else if (flagsById.length < internCount()) {
    const bigger = new Uint16Array(2 * internCount());
    bigger.set(flagsById);
    flagsById = bigger;
  }
  return flagsById;
}

function wordFlags(tokens: Tokens, table: Uint16Array | undefined, k: number): number {
  if (!table) return computeFlags(word(tokens, k));
  const id = tokens.id[k]!;
  let f = table[id]!;
  if (f === 0) {
    f = computeFlags(word(tokens, k));
    table[id] = f;
  }
  return f;
}

function computeFlags(w: string): number {
  let f = KNOWN;
  if (NEGATORS.has(w)) f |= NEGATOR;
  if (OVERRIDE_VERBS.has(w)) f |= OVERRIDE;
  if (w.length > 2 && w[0] === 'n' && OVERRIDE_VERBS.has(w.slice(1))) f |= ELIDED_OVERRIDE;
  if (w.length >= 3 && !MINOR_WORDS.words.has(w)) f |= LONG_WORD;
  if (DOC_REFERENCE.words.has(w)) f |= DOC_WORD;
  if (DOC_REFERENCE.firstWords.has(w)) f |= DOC_FIRST;
  if (OUTPUT_WORDS.words.has(w)) f |= OUTPUT_WORD;
  if (w === 'your' || w === 'the') f |= YOUR_OR_THE;
  return f;
}

/**
 * Spans where an override verb is negated ("do not ignore the safety instructions", "N'ignorez pas", "不要忽略"):
 * advice, not an attack. The learned layer reads the segment with these spans blanked, as the pattern layer drops
 * negated matches. Linear: a fixed look-around per token and per CJK negator.
 */
function negatedOverrides(text: string, tokens: Tokens): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const { sent, length } = tokens;
  const sentenceEnd = (k: number, limit: number) => {
    let e = k;
    while (e + 1 < length && e < limit && sent[e + 1] === sent[k]) e++;
    return tokens.end[e]!;
  };
  const table = flagTable(tokens);
  for (let k = 0; k < length; k++) {
    const f = wordFlags(tokens, table, k);
    if ((f & (NEGATOR | OVERRIDE | ELIDED_OVERRIDE)) === 0) continue;
    let verb = -1;
    if (f & NEGATOR) {
      for (let j = k + 1; j <= k + 2 && j < length && sent[j] === sent[k]; j++) {
        if (wordFlags(tokens, table, j) & OVERRIDE) verb = j;
      }
    } else {
      // "ignorez pas", "ignoriere nicht", and French elision "n'ignorez" (the tokenizer drops the apostrophe).
      if (!(f & OVERRIDE) || (k + 1 < length && sent[k + 1] === sent[k] && wordFlags(tokens, table, k + 1) & NEGATOR)) {
        verb = k;
      }
    }
    if (verb >= 0) out.push({ start: tokens.start[k]!, end: sentenceEnd(verb, verb + 4) });
  }
  // The CJK negators, found by a native scan of one character class (no backtracking).
  const find = CJK_NEGATOR_CLASS;
  find.lastIndex = 0;
  for (let m = find.exec(text); m !== null; m = find.exec(text)) {
    const i = m.index;
    for (let d = 1; d <= 2; d++) {
      const at = i + d;
      const hit = OVERRIDE_CJK.find((v) => text.startsWith(v, at));
      if (hit) {
        out.push({ start: i, end: Math.min(text.length, at + hit.length + 8) });
        break;
      }
    }
  }
  return out;
}

/** "Never share your password" is advice, not a lure: a negator right before the phrase cancels it. */
function negated(tokens: Tokens, start: number): boolean {
  if (NEGATORS.has(word(tokens, start))) return false;
  for (let k = start - 1; k >= 0 && k >= start - 2; k--) {
    if (tokens.sent[k] !== tokens.sent[start]) return false;
    if (NEGATORS.has(word(tokens, k))) return true;
  }
  return false;
}

/**
 * A word list and the first words of its two-word entries ("give_me"): a lookup joins a token with the next one only
 * when the token can start such an entry (tokens never contain `_`), instead of building a string per token.
 */
interface WordSet {
  words: Set<string>;
  firstWords: Set<string>;
}

function wordSet(list: string[]): WordSet {
  const words = expandWords(list);
  const firstWords = new Set<string>();
  for (const w of words) if (w.includes('_')) firstWords.add(w.slice(0, w.indexOf('_')));
  return { words, firstWords };
}

const TASK_VERBS = wordSet(file.structure.taskVerbs);
const EDIT_VERBS = wordSet(file.structure.editVerbs);
const MINOR_WORDS = wordSet(file.structure.minorWords);
const QUESTION_WORDS = wordSet(file.structure.questionWords);
const DOC_REFERENCE = wordSet(file.structure.docReference);
const OUTPUT_WORDS = wordSet(file.structure.outputWords);
const CONJUNCTIONS = new Set(['and', 'or', 'but', 'nor']);
const STOPWORDS = new Set([...expandWords(file.structure.stopwords), ...file.fillers]);

// ---------------------------------------------------------------------------------------------------------------

interface Hit {
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

const MAX_MARKER = 160;
const WINDOW = 160;

function shortMarker(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  if (one.length <= MAX_MARKER) return one;
  return `${one.slice(0, 100)}…${one.slice(one.length - 50)}`;
}

/** Joins the first one or two words of a line so that multi-word verbs ("give_me", "break_down") can be looked up. */
function startsWithIn(tokens: Tokens, from: number, to: number, set: WordSet): boolean {
  if (from >= tokens.length) return false;
  const a = word(tokens, from);
  if (set.words.has(a)) return true;
  return from + 1 < to && set.firstWords.has(a) && set.words.has(`${a}_${word(tokens, from + 1)}`);
}

/** Whether tokens [from, to) hold a DOC_REFERENCE word or two-word phrase. */
function mentionsDocument(tokens: Tokens, table: Uint16Array | undefined, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const f = wordFlags(tokens, table, k);
    if (f & DOC_WORD) return true;
    if (f & DOC_FIRST && k + 1 < to && DOC_REFERENCE.words.has(`${word(tokens, k)}_${word(tokens, k + 1)}`))
      return true;
  }
  return false;
}

function stem(w: string): string {
  return w.length > 6 ? w.slice(0, 6) : w;
}

const isContent = (w: string) => {
  if (w.length < 4) return false;
  const c = w.charCodeAt(0);
  if (c >= 0x30 && c <= 0x39) return false;
  return !STOPWORDS.has(w) && !TASK_VERBS.words.has(w);
};

/**
 * Foreign-task lines: a retrieved document (an email, an answer, a page) with one line that is an imperative or a
 * question aimed at the reader, unrelated to the rest of the document. Three structural tests stand in for knowing
 * the user's task: the line stands alone (its own line, one sentence, not a heading), the document around it is real
 * prose, and the line shares no content words with that document. Only one or two such lines may exist: a page full
 * of question headings is an FAQ, not an injection.
 */
function stemCounts(tokens: Tokens, meter?: Meter): Map<string, number> {
  const counts = new Map<string, number>();
  for (let k = 0; k < tokens.length; k++) {
    if (meter) meter.steps++;
    const w = word(tokens, k);
    if (isContent(w)) {
      const s = stem(w);
      counts.set(s, (counts.get(s) ?? 0) + 1);
    }
  }
  return counts;
}

/** Title Case lines are headings, menu items and buttons, not sentences someone wrote to the reader. */
function isHeading(tokens: Tokens, table: Uint16Array | undefined, a: number, b: number): boolean {
  let capital = 0;
  let long = 0;
  for (let k = a + 1; k < b; k++) {
    if (wordFlags(tokens, table, k) & LONG_WORD) {
      long++;
      if (tokens.cap[k] === 1) capital++;
    }
  }
  return long >= 1 && capital / long > 0.5;
}

function classifyLine(tokens: Tokens, table: Uint16Array | undefined, a: number, b: number): string {
  const len = b - a;
  if (len < 5 || len > 45 || tokens.sent[a] !== tokens.sent[b - 1]) return '';
  if (isHeading(tokens, table, a, b)) return '';
  let first = a;
  while (first < b - 1 && compiled.fillers.has(word(tokens, first))) first++;
  const lastAfter = afterAt(tokens, b - 1);
  let outputDirective = false;
  for (let k = a; k < b - 1; k++) {
    if (wordFlags(tokens, table, k) & YOUR_OR_THE && wordFlags(tokens, table, k + 1) & OUTPUT_WORD) {
      outputDirective = true;
    }
  }
  if (outputDirective && (startsWithIn(tokens, first, b, EDIT_VERBS) || startsWithIn(tokens, first, b, TASK_VERBS))) {
    return 'output';
  }
  if (outputDirective && word(tokens, first) === 'in') return 'output';
  if (mentionsDocument(tokens, table, a, b)) return '';
  if (startsWithIn(tokens, first, b, TASK_VERBS) && lastAfter !== 0x3a) return 'task';
  // A question line that opens with a conjunction ("and have it mean the same thing?") finishes the sentence above.
  if (lastAfter === 0x3f && QUESTION_WORDS.words.has(word(tokens, first)) && !CONJUNCTIONS.has(word(tokens, a))) {
    return 'question';
  }
  return '';
}

/**
 * Foreign-task lines: a retrieved document (an email, an answer, a page) with one line that is an imperative or a
 * question aimed at the reader, unrelated to the rest of the document. Three structural tests stand in for knowing
 * the user's task: the line stands alone (its own line, one sentence, not a heading), the document around it is real
 * prose, and the line shares no content words with that document. Only one or two such lines may exist: a page full
 * of question headings is an FAQ, not an injection. Hidden text is held against the visible document.
 */
function foreignTaskLines(
  seg: Segment,
  tokens: Tokens,
  visibleCounts: () => Map<string, number>,
  meter?: Meter,
): { text: string; tok: number; start: number; end: number }[] {
  if (tokens.length === 0) return [];
  const table = flagTable(tokens);
  const candidates: { from: number; to: number; kind: string }[] = [];
  let docTokens = 0;
  let from = 0;
  for (let k = 1; k <= tokens.length; k++) {
    if (meter) meter.steps++;
    if (k < tokens.length && tokens.line[k] === tokens.line[from]) continue;
    // Line [a, b) of tokens.
    const a = from;
    const b = k;
    from = k;
    if (meter) meter.steps++;
    const kind = classifyLine(tokens, table, a, b);
    // Questions in hidden markup are polls and collapsed FAQ answers far more often than attacks.
    if (kind && !(seg.hidden && kind === 'question')) {
      candidates.push({ from: a, to: b, kind });
      // More than two: a page of such lines (an FAQ), not an injected one; nothing more to learn.
      if (candidates.length > 2) return [];
    } else docTokens += b - a;
  }
  if (candidates.length === 0) return [];
  if (!seg.hidden && docTokens < 12) return [];
  const counts = seg.hidden ? visibleCounts() : stemCounts(tokens, meter);
  const out: { text: string; tok: number; start: number; end: number }[] = [];
  for (const c of candidates) {
    {
      const own = new Map<string, number>();
      for (let k = c.from; k < c.to; k++) {
        const w = word(tokens, k);
        if (!isContent(w)) continue;
        const s = stem(w);
        own.set(s, (own.get(s) ?? 0) + 1);
      }
      let shared = 0;
      for (const [s, n] of own) if ((counts.get(s) ?? 0) > (seg.hidden ? 0 : n)) shared++;
      if (meter) meter.steps += c.to - c.from;
      if (own.size === 0 || shared > 0) continue;
    }
    const start = tokens.start[c.from]!;
    const end = tokens.end[c.to - 1]! + 1;
    out.push({ text: seg.text.slice(start, end), tok: c.from, start, end });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------

/** The learned scorer and the probabilities (rules/injection.json) at which its best window becomes a finding. */
export interface LearnedScreen {
  model: ScorerModel;
  thresholds: { approval_required: number; block: number };
}

export interface ScreenOptions {
  /** Counts elementary steps (tokens, automaton transitions, line checks) for the linearity test. */
  meter?: Meter;
  /** The learned layer; without it the screen is the pattern layer alone. */
  learned?: LearnedScreen;
  /** Category severities and pattern weights (the ruleset's rules/injection-patterns.json); default: the shipped file. */
  rules?: PatternRules;
  /** Filled with every phrase hit, the best window score per category and the model's best window per segment. */
  explain?: {
    scores?: Record<string, number>;
    hits?: string[];
    model?: { segment: number; p: number; marker: string }[];
  };
}

/** Flags of model categories the pattern file does not name (the category head may use the data's own names). */
const MODEL_CATEGORY_FLAGS: Record<string, string> = {
  exfiltration: 'agent:credential_lure_for_agents',
  data_exfiltration: 'agent:credential_lure_for_agents',
  credential_theft: 'agent:credential_lure_for_agents',
  code_execution: 'agent:unsafe_execution_lure',
};

function flagOfCategory(category: string): string {
  return categories[category]?.flag ?? MODEL_CATEGORY_FLAGS[category] ?? 'agent:injected_instructions';
}

const rank = { none: 0, low: 1, high: 2 } as const;

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

export function screenText(text: string, options: ScreenOptions = {}): ScreenResult {
  const meter = options.meter;
  const rules = options.rules ?? SHIPPED_PATTERN_RULES;
  const weights = weightsOf(rules);
  const severityOf = (category: string) => rules.severities[category]!;
  const norm = normalize(text, meter);
  const hits: Hit[] = [];
  const negatedSpans: { segment: number; start: number; end: number }[] = [];
  const segs = norm.segments;
  const multiplier: number[] = [];
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
    if (options.learned) for (const n of negatedOverrides(seg.text, tokens)) negatedSpans.push({ segment: si, ...n });
    segTokens[si] = tokens.length;
    if (!seg.hidden && si === 0) visibleTokens = tokens;
    const matches = compiled.match(tokens, meter);
    let addressed = false;
    for (const m of matches) {
      const def = compiled.patterns[m.pattern]!;
      if (NEGATABLE.has(def.category) && negated(tokens, m.startTok)) {
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
      if (def.category === 'agent_address') addressed = true;
      hits.push({
        tok: m.startTok,
        start: tokens.start[m.startTok]!,
        end: tokens.end[m.endTok]!,
        category: def.category,
        patternId: def.id,
        weight: weights[m.pattern]!,
        repeat: def.repeat ?? 1,
        marker: seg.text.slice(tokens.start[m.startTok]!, tokens.end[m.endTok]!),
        segment: si,
        family: def.family,
      });
    }
    for (const line of foreignTaskLines(seg, tokens, visibleCounts, meter)) {
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
    // Hidden text, text addressed to an AI reader, and text dressed in look-alike characters make every weak
    // signal in them count double (the address itself is not boosted by its own presence).
    addressedSeg[si] = addressed;
    multiplier[si] = (seg.hidden ? 2 : 1) * (addressed ? 2 : 1) * (seg.obfuscated ? 2 : 1);
  });

  // Category score: each pattern counts at its strongest occurrence, or for up to `repeat` distinct phrases. Weak
  // evidence must sit close together: scores are taken over windows of two consecutive blocks of WINDOW tokens, so
  // a long page cannot add up scattered common phrases into a finding.
  const byWindow = new Map<string, Hit[]>();
  for (const h of hits) {
    const b = Math.floor(h.tok / WINDOW);
    for (const key of [`${h.segment}:${b}`, `${h.segment}:${b - 1}`]) {
      const list = byWindow.get(key) ?? [];
      list.push(h);
      byWindow.set(key, list);
    }
  }
  const fired = new Set<string>();
  const scores: Record<string, number> = {};
  for (const list of byWindow.values()) {
    if (meter) meter.steps += list.length;
    const perPattern = new Map<string, { category: string; repeat: number; byPhrase: Map<string, number> }>();
    const families = new Map<string, Set<string>>();
    for (const h of list) {
      if (h.family && segTokens[h.segment]! >= CUE_RULE.minTokens) {
        const set = families.get(h.category) ?? new Set<string>();
        set.add(h.family);
        families.set(h.category, set);
      }
      const boost =
        h.category === 'agent_address'
          ? multiplier[h.segment]! / (addressedSeg[h.segment] ? 2 : 1)
          : multiplier[h.segment]!;
      let entry = perPattern.get(h.patternId);
      if (!entry) {
        entry = { category: h.category, repeat: h.repeat, byPhrase: new Map() };
        perPattern.set(h.patternId, entry);
      }
      const key = h.marker.toLowerCase();
      entry.byPhrase.set(key, Math.max(entry.byPhrase.get(key) ?? 0, h.weight * boost));
    }
    const score = new Map<string, number>();
    for (const entry of perPattern.values()) {
      const top = [...entry.byPhrase.values()].sort((a, b) => b - a).slice(0, entry.repeat);
      score.set(entry.category, (score.get(entry.category) ?? 0) + top.reduce((a, b) => a + b, 0));
    }
    for (const [cat, set] of families) {
      if (set.size >= CUE_RULE.minFamilies) score.set(cat, Math.max(score.get(cat) ?? 0, 1));
    }
    for (const [cat, sum] of score) {
      if (sum >= 0.999) fired.add(cat);
      scores[cat] = Math.max(scores[cat] ?? 0, sum);
    }
  }

  const findings: InjectionFinding[] = [];
  const seen = new Set<string>();
  const visibleMarkers = new Set<string>();
  for (const h of hits)
    if (!segs[h.segment]!.hidden && fired.has(h.category)) visibleMarkers.add(h.marker.toLowerCase());
  const add = (f: InjectionFinding) => {
    const key = `${f.category}\u0000${f.marker.toLowerCase()}`;
    if (seen.has(key)) return;
    seen.add(key);
    findings.push(f);
  };
  const perCategory = new Map<string, number>();
  for (const h of hits) {
    if (!fired.has(h.category)) continue;
    const n = perCategory.get(h.category) ?? 0;
    if (n >= 10) continue;
    perCategory.set(h.category, n + 1);
    const cat = categories[h.category]!;
    const catSeverity = severityOf(h.category);
    const seg = segs[h.segment]!;
    const marker = shortMarker(h.marker);
    add({
      category: h.category,
      marker,
      flag: cat.flag,
      severity: catSeverity,
      ...(seg.hidden ? { hidden: true } : {}),
    });
    if (seg.hidden && !visibleMarkers.has(h.marker.toLowerCase())) {
      const hiddenCat = categories.hidden_text!;
      add({
        category: 'hidden_text',
        marker: shortMarker(`${seg.via ?? 'hidden'}: ${h.marker}`),
        flag: hiddenCat.flag,
        severity: catSeverity === 'low' ? 'low' : severityOf('hidden_text'),
        hidden: true,
      });
    }
  }
  // The learned layer: the best window of each segment, a finding when its probability reaches a threshold. A
  // pattern finding of at least the same severity inside that window already explains it; otherwise the window is
  // the marker, named by the strongest pattern category inside it or else by the category head.
  const modelWindows: { segment: number; p: number; marker: string }[] = [];
  if (options.learned) {
    const { model, thresholds } = options.learned;
    const negatedBySegment = new Map<number, { start: number; end: number }[]>();
    for (const n of negatedSpans) {
      const list = negatedBySegment.get(n.segment) ?? [];
      list.push(n);
      negatedBySegment.set(n.segment, list);
    }
    segs.forEach((seg, si) => {
      let text = seg.text;
      const negatedHere = negatedBySegment.get(si);
      if (negatedHere) {
        // The negated phrases are blanked (same length, so offsets hold) before the model reads the segment.
        const chars = text.split('');
        for (const n of negatedHere) for (let k = n.start; k < n.end; k++) chars[k] = ' ';
        text = chars.join('');
        if (meter) meter.steps += text.length;
      }
      const best = scoreSegment(model, text, meter).best;
      if (!best) return;
      const p = sigmoid(best.z);
      const marker = seg.text.slice(best.start, best.end).replace(/\s+/g, ' ').trim();
      modelWindows.push({ segment: si, p, marker });
      if (p < thresholds.approval_required) return;
      const severity = p >= thresholds.block ? 'high' : 'low';
      let patternCategory: string | undefined;
      let patternSeverity: ScreenResult['severity'] = 'none';
      for (const h of hits) {
        if (h.segment !== si || !fired.has(h.category) || h.end <= best.start || h.start >= best.end) continue;
        const sev = severityOf(h.category);
        if (rank[sev] > rank[patternSeverity]) {
          patternCategory = h.category;
          patternSeverity = sev;
        }
      }
      if (patternCategory && rank[patternSeverity] >= rank[severity]) return;
      const category = patternCategory ?? categoryOf(model, seg.text, best)?.category ?? 'instruction_override';
      add({
        category,
        marker,
        flag: flagOfCategory(category),
        severity,
        ...(seg.hidden ? { hidden: true } : {}),
      });
      if (seg.hidden) {
        add({
          category: 'hidden_text',
          marker: shortMarker(`${seg.via ?? 'hidden'}: ${marker}`),
          flag: categories.hidden_text!.flag,
          severity: severity === 'low' ? 'low' : severityOf('hidden_text'),
          hidden: true,
        });
      }
    });
  }
  const hiddenCat = categories.hidden_text!;
  if (norm.interleavedZeroWidth >= 8 && findings.length > 0) {
    add({
      category: 'hidden_text',
      marker: `zero-width characters inside words (${norm.interleavedZeroWidth})`,
      flag: hiddenCat.flag,
      severity: findings.some((f) => f.severity === 'high') ? severityOf('hidden_text') : 'low',
    });
  }
  if (!findings.some((f) => f.category === 'hidden_text')) {
    // A message deliberately encoded in invisible characters is evidence even when no phrase in it matched.
    for (const m of norm.hiddenMessages) {
      add({
        category: 'hidden_text',
        marker: shortMarker(`${m.encoding}: ${m.text.slice(0, 100)}`),
        flag: hiddenCat.flag,
        severity: 'low',
        hidden: true,
      });
    }
  }
  let severity: ScreenResult['severity'] = 'none';
  for (const f of findings) if (rank[f.severity] > rank[severity]) severity = f.severity;
  if (options.explain) {
    options.explain.scores = scores;
    options.explain.hits = hits.map(
      (h) => `${h.patternId} ${h.weight}x${multiplier[h.segment]}: ${shortMarker(h.marker)}`,
    );
    options.explain.model = modelWindows;
  }
  return { findings, severity };
}
