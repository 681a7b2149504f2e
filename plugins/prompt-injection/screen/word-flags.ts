// The word sets the stages derive from patterns.json (negators, override verbs, the foreign-task lexicons) and the
// per-word flags the negation and line checks ask of every token, cached per interned word id (tokenizer.ts).
import { internCount, internEpoch } from '../intern.ts';
import type { Tokens } from '../matcher.ts';
import { expandWords, file, NEGATORS } from './pattern-file.ts';

/** Override verbs of every language (single words), and the Chinese/Japanese ones (matched in the text). */
const OVERRIDE_LEXICONS = ['ignore', 'ignoreDe', 'ignoreFr', 'ignoreEs', 'ignorePt'];
export const OVERRIDE_VERBS = new Set(
  OVERRIDE_LEXICONS.flatMap((l) => file.lexicons[l] ?? []).filter((w) => !w.includes('_')),
);

/** Folded word of token k. */
export const word = (t: Tokens, k: number): string => t.dict[t.id[k]!]!;

// Word properties the negation checks ask of every token, cached per interned word id (tokenizer.ts).
export const NEGATOR = 1;
export const OVERRIDE = 2;
/** "n" + an override verb: French elision "n'ignorez" with the apostrophe dropped. */
export const ELIDED_OVERRIDE = 4;
export const KNOWN = 8;
// And the ones the foreign-task line checks ask of every token of a line.
/** At least three letters and not a minor word (counts towards telling a heading). */
export const LONG_WORD = 16;
export const DOC_WORD = 32;
/** First word of a two-word DOC_REFERENCE entry. */
export const DOC_FIRST = 64;
export const OUTPUT_WORD = 128;
/** "your" or "the" (an output directive names "your response", "the answer"). */
export const YOUR_OR_THE = 256;
/** "question", "q": a line that names a question announces the one after it (foreign-task.ts). */
export const QUESTION_LABEL = 512;
let flagEpoch = -1;
let flagsById = new Uint16Array(0);

/** The flag table covering every id handed out so far, or undefined for tokens of an older intern epoch. */
export function flagTable(tokens: Tokens): Uint16Array | undefined {
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

export function wordFlags(tokens: Tokens, table: Uint16Array | undefined, k: number): number {
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
  if (QUESTION_LABELS.has(w)) f |= QUESTION_LABEL;
  return f;
}

/**
 * A word list and the first words of its two-word entries ("give_me"): a lookup joins a token with the next one only
 * when the token can start such an entry (tokens never contain `_`), instead of building a string per token.
 */
export interface WordSet {
  words: Set<string>;
  firstWords: Set<string>;
}

function wordSet(list: string[]): WordSet {
  const words = expandWords(list);
  const firstWords = new Set<string>();
  for (const w of words) if (w.includes('_')) firstWords.add(w.slice(0, w.indexOf('_')));
  return { words, firstWords };
}

export const TASK_VERBS = wordSet(file.structure.taskVerbs);
export const EDIT_VERBS = wordSet(file.structure.editVerbs);
export const MINOR_WORDS = wordSet(file.structure.minorWords);
export const QUESTION_WORDS = wordSet(file.structure.questionWords);
export const DOC_REFERENCE = wordSet(file.structure.docReference);
export const OUTPUT_WORDS = wordSet(file.structure.outputWords);
export const OUTPUT_MODIFIERS = new Set(file.structure.outputModifiers);
export const READER_VERBS = new Set(file.structure.readerVerbs);
export const READER_WORDS = new Set(file.structure.readerWords);
export const ANSWER_VERBS = new Set(file.structure.answerVerbs);
export const PROMOTE_VERBS = new Set(file.structure.promoteVerbs);
export const ANSWER_VERBS_INTL = new Set(file.structure.answerVerbsIntl);
export const ONLY_INTL = wordSet(file.structure.onlyIntl);
export const ONLY_INTL_NOT_BEFORE = new Set(file.structure.onlyIntlNotBefore);
export const PROMOTE_VERBS_INTL = new Set(file.structure.promoteVerbsIntl);
export const READER_WORDS_INTL = new Set(file.structure.readerWordsIntl);
/** Names of the AI reader (the agent lexicon), for a vocative before an order ("AI assistant, add …"). */
export const AGENT_WORDS = expandWords(['@agent']);
export const ANSWER_MANNER = wordSet(file.structure.answerManner);
export const CONNECTORS = expandWords(file.structure.connectors);
export const REMINDERS = wordSet(file.structure.reminders);
export const EDIT_VERBS_INTL = new Set(file.structure.editVerbsIntl);
export const YOUR_INTL = new Set(file.structure.yourIntl);
export const ANSWER_NOUNS_INTL = new Set(file.structure.answerNounsIntl);
export const OUTPUT_MODIFIERS_INTL = new Set(file.structure.outputModifiersIntl);
export const POLITE_INTL = new Set(file.structure.politeIntl);
export const QUESTION_LABELS = new Set(file.structure.questionLabels);
export const OBJECT_PRONOUNS = new Set(file.structure.objectPronouns);
export const DEMONSTRATIVES = new Set(file.structure.demonstratives);
export const TIME_NOUNS = new Set(file.structure.timeNouns);
export const CONJUNCTIONS = new Set(['and', 'or', 'but', 'nor']);
export const STOPWORDS = new Set([...expandWords(file.structure.stopwords), ...file.fillers]);
