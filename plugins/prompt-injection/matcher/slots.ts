// Patterns compiled to slots: one per word position of each alternative of each element, chained by state ids.
import { isCjk } from '../tokenizer.ts';
import { foldWord } from '../word-chars.ts';
import type { PatternDef } from './types.ts';

/**
 * One word position of one alternative of one element. `read` is the state the slot needs to be live (-1: the
 * pattern's first element, always live); `write` is the state it makes live (-1: the pattern matched).
 */
export interface Slot {
  pattern: number;
  read: number;
  write: number;
  gapBefore: number;
  anchor: 'sentence' | 'line' | undefined;
  cross: boolean;
}

/**
 * The token words of one alternative: `_` separates words, and each CJK character is a word of its own. A word is
 * folded as the tokenizer folds text (`foldWord`): it reads the digits of a word that has letters as leetspeak, so
 * the text's "base64" is the token "base6a", and an unfolded "base64" in a pattern would never match.
 */
function altWords(alt: string): string[] {
  const out: string[] = [];
  for (const part of alt.split('_')) {
    let run = '';
    for (const ch of part) {
      if (isCjk(ch.codePointAt(0)!)) {
        if (run) out.push(foldWord(run));
        run = '';
        out.push(ch);
      } else run += ch;
    }
    if (run) out.push(foldWord(run));
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

interface TrieNode {
  word: string;
  parent: TrieNode | undefined;
  children: Map<string, TrieNode>;
  /** An alternative ends here. */
  end: boolean;
}

/** The word sequences of an element's alternatives as a trie (children in first-seen order). */
function trieOf(sequences: readonly string[][]): TrieNode {
  const root: TrieNode = { word: '', parent: undefined, children: new Map(), end: false };
  for (const words of sequences) {
    let node = root;
    for (const w of words) {
      let child = node.children.get(w);
      if (!child) {
        child = { word: w, parent: node, children: new Map(), end: false };
        node.children.set(w, child);
      }
      node = child;
    }
    node.end = true;
  }
  return root;
}

/** Every slot of every pattern, the word each one reads, and the number of states. */
export function buildSlots(
  patterns: readonly PatternDef[],
  lexicons: Record<string, string[]>,
): { slots: Slot[]; slotWords: string[]; states: number } {
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
      // The alternatives as a trie: those that share their first words share those words' slots and states
      // ("the_phrase|the_words|the_reply" is one slot on "the", not three). A state holds the latest token that
      // reached it, and alternatives with the same first words reach the same states at the same tokens, so sharing
      // them changes no match. A node's state is allocated after its parent's, and the element's exit state after
      // all of them, so states still grow along the pattern.
      const root = trieOf(alts.map(altWords));
      const nodes: TrieNode[] = [];
      for (let level = [...root.children.values()]; level.length > 0; ) {
        nodes.push(...level);
        level = level.flatMap((node) => [...node.children.values()]);
      }
      const inner = new Map<TrieNode, number>();
      for (const node of nodes) if (node.children.size > 0) inner.set(node, states++);
      const next = lastElement ? -1 : states;
      const emit = (node: TrieNode, read: number, write: number, first: boolean) => {
        slots.push({
          pattern: p,
          read,
          write,
          gapBefore: first ? gap : 0,
          anchor: i === 0 && first ? def.anchor : undefined,
          cross: def.crossSentence === true,
        });
        slotWords.push(node.word);
      };
      for (const node of nodes) {
        const read = node.parent === root ? entry : inner.get(node.parent!)!;
        const first = node.parent === root;
        if (node.end) emit(node, read, next, first);
        if (node.children.size > 0) emit(node, read, inner.get(node)!, first);
      }
      if (!lastElement) entry = states++;
    });
  }
  return { slots, slotWords, states };
}
