// patterns.json, validated and compiled once at load: the categories and their flags, the phrase automaton, and the
// word lists the other stages derive their sets from.

import realWordsFile from '../matcher/real-words.json' with { type: 'json' };
import { compile, type PatternDef } from '../matcher.ts';
import { checkPatternRules, type PatternRules, SHIPPED_PATTERN_RULES } from '../pattern-rules.ts';
import patternFile from '../patterns.json' with { type: 'json' };
import { INJECTION_FLAGS } from './result.ts';

/** A category's flag; its severity is a rule (rules/injection-patterns.json, see pattern-rules.ts). */
interface CategoryDef {
  flag: string;
  description: string;
}

/** The word lists of the structure rules (`structure` in patterns.json); each is checked at load. */
const STRUCTURE_LISTS = [
  'taskVerbs',
  'editVerbs',
  'minorWords',
  'questionWords',
  'docReference',
  'outputWords',
  'outputModifiers',
  'readerVerbs',
  'readerWords',
  'promoteVerbs',
  'answerVerbsIntl',
  'onlyIntl',
  'onlyIntlNotBefore',
  'promoteVerbsIntl',
  'readerWordsIntl',
  'answerVerbs',
  'answerManner',
  'connectors',
  'reminders',
  'editVerbsIntl',
  'yourIntl',
  'answerNounsIntl',
  'outputModifiersIntl',
  'politeIntl',
  'questionLabels',
  'objectPronouns',
  'demonstratives',
  'timeNouns',
  'stopwords',
] as const;

type StructureDef = Record<(typeof STRUCTURE_LISTS)[number], string[]>;

/**
 * Stacked weak cues: jailbreak set-ups combine several kinds of persona and rule wording (a persona, persistence,
 * a confirmation handshake, a response format, reminders) that benign prompts rarely stack. When a window holds at
 * least `minFamilies` distinct `family` values of one category, in a segment of at least `minTokens` tokens, the
 * category fires whatever the weights sum to.
 */
export interface CueRule {
  minFamilies: number;
  minTokens: number;
}

/** Quoted examples of an override or a leak request: see `mentionRule.note` in patterns.json. */
interface MentionRule {
  categories: string[];
  cues: string[];
  /** Raw strings right after the closing mark (CJK has no word boundaries to look up a token by). */
  cuesAfter: string[];
}

interface PatternFile {
  categories: Record<string, CategoryDef>;
  cueRule: CueRule;
  /** Most a window's patterns of one `family` add to their category together: see `familyCaps.note`. */
  familyCaps: { note: string; caps: Record<string, number> };
  negators: string[];
  negatableCategories: string[];
  mentionRule: MentionRule;
  fillers: string[];
  lexicons: Record<string, string[]>;
  patterns: PatternDef[];
  structure: StructureDef;
}

export const file = patternFile as unknown as PatternFile;

/** Validates the data file once at load; a bad file is a programming error and must fail loudly. */
export function validatePatternFile(f: PatternFile): void {
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
  for (const c of f.mentionRule.categories) {
    if (!f.categories[c]) throw new Error(`patterns.json: mentionRule names unknown category ${c}`);
  }
  if (!f.mentionRule.cues.every((w) => typeof w === 'string' && w === w.toLowerCase() && !w.includes(' '))) {
    throw new Error('patterns.json: mentionRule.cues lists single lowercase words');
  }
  if (!f.mentionRule.cuesAfter.every((w) => typeof w === 'string' && w.length > 0)) {
    throw new Error('patterns.json: mentionRule.cuesAfter lists non-empty strings');
  }
  // A list missing or misspelt in the data file would leave its rule silently empty.
  for (const key of STRUCTURE_LISTS) {
    const words: unknown = f.structure[key];
    if (!Array.isArray(words) || words.length === 0 || !words.every((w) => typeof w === 'string' && w.length > 0)) {
      throw new Error(`patterns.json: structure.${key} must list non-empty strings`);
    }
  }
  const ids = new Set<string>();
  for (const p of f.patterns) {
    if (ids.has(p.id)) throw new Error(`patterns.json: duplicate pattern id ${p.id}`);
    ids.add(p.id);
    if (!f.categories[p.category]) throw new Error(`patterns.json: pattern ${p.id}: unknown category ${p.category}`);
    if (p.category === 'hidden_text') throw new Error(`patterns.json: ${p.id}: hidden_text is derived, not matched`);
    for (const key of ['halfWithin', 'notAfter', 'notBefore'] as const) {
      const words = p[key];
      if (words && !words.every((w) => typeof w === 'string' && w === w.toLowerCase() && !w.includes(' '))) {
        throw new Error(`patterns.json: ${p.id}: ${key} lists single lowercase words`);
      }
    }
  }
}

validatePatternFile(file);
checkPatternRules(SHIPPED_PATTERN_RULES, Object.keys(file.categories), file.patterns);

/** Throws when `rules` do not fit patterns.json (the detector calls it at boot with the ruleset's copy). */
export function checkScreenRules(rules: PatternRules): void {
  checkPatternRules(rules, Object.keys(file.categories), file.patterns);
}

/** Words of ordinary text one slip from a pattern word: never read as typos (npm run data:real-words). */
const REAL_WORDS: ReadonlySet<string> = new Set(realWordsFile.words as string[]);

export const compiled = compile(file.patterns, file.lexicons, file.fillers, REAL_WORDS);
export const categories = file.categories;

export function expandWords(list: string[]): Set<string> {
  const out = new Set<string>();
  for (const item of list) {
    if (item.startsWith('@')) for (const w of file.lexicons[item.slice(1)] ?? []) out.add(w);
    else out.add(item);
  }
  return out;
}

export const FAMILY_CAPS: ReadonlyMap<string, number> = new Map(Object.entries(file.familyCaps.caps));
// The scorer sums a capped family on its own before adding it to its category: one family, one category.
for (const family of FAMILY_CAPS.keys()) {
  const cats = new Set(file.patterns.filter((p) => p.family === family).map((p) => p.category));
  if (cats.size !== 1) throw new Error(`patterns.json: capped family ${family} spans ${cats.size} categories`);
}
export const CUE_RULE: CueRule = file.cueRule ?? { minFamilies: Number.POSITIVE_INFINITY, minTokens: 0 };
export const NEGATORS = new Set(file.negators);
export const NEGATABLE = new Set(file.negatableCategories);
export const MENTIONABLE = new Set(file.mentionRule.categories);
export const MENTION_CUES: readonly string[] = file.mentionRule.cues;
export const MENTION_CUES_AFTER: readonly string[] = file.mentionRule.cuesAfter;
