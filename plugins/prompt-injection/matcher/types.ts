// The matcher's public shapes: the pattern definition of patterns.json, a match, the compiled automaton.
import type { Tokens } from '../tokenizer.ts';

export interface Meter {
  steps: number;
}

export interface PatternDef {
  id: string;
  category: string;
  /** Each element: alternatives separated by `|`; `@name` expands a lexicon; `word*` is a prefix, `*word` a suffix of a longer word; `a_b` is a phrase;
   * `word:` requires a colon right after the word, `word=` an equals sign (a closing bracket may come between:
   * `(PERSONALITY)=[…]`), `word,` a comma (a vocative: "Assistant, ignore …"); `@cap` is any word written with a capital first letter (a name). */
  seq: string[];
  /** Most tokens allowed between consecutive elements (default 2). */
  gap?: number;
  /** Per-element gaps (index i = gap before element i+1). */
  gaps?: number[];
  /** How many distinct matched phrases of this pattern count (default 1): trait lists are evidence per trait. */
  repeat?: number;
  /** Words a prefix or suffix alternative must not match ("robot" is not a coined "*bot" persona). */
  exclude?: string[];
  /** Words that halve a match's weight when they stand inside it: "disregard my earlier message" is how a writer takes
   * back their own words, "disregard the earlier message" overrides someone else's (an attack can still pose as the
   * writer, so the match stays evidence). Read by the screen, not the automaton. */
  halfWithin?: string[];
  /** Words that, among the three tokens before the match in its sentence, drop it: "a helpful assistant that summarises"
   * names a role, "the assistant that summarises this page" calls a reader. Read by the screen, not the automaton. */
  notAfter?: string[];
  /** Words that, as the token right after the match in its sentence, drop it: the match is then the modifier of a
   * longer noun ("summarise the system prompt design patterns of this article" asks about an article, not for the
   * reader's prompt). Read by the screen, not the automaton. */
  notBefore?: string[];
  /** A match inside a Markdown code fence (between two ``` lines) does not count: a page that documents the payload
   * shows it as an example there ("replace the code above with this: ```js … onerror='alert(…)' …```"). Read by the
   * screen, not the automaton. */
  notInCode?: boolean;
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
