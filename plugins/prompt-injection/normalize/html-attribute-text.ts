// Prose carried in attributes (image alt texts, meta descriptions): unseen on screen, read out by page-to-text tools.
import { decodeHTML } from 'entities';
import { isCjk } from '../word-chars.ts';
import type { ParsedTag } from './html-tag.ts';

/** `meta` names whose content search snippets, link previews and page-to-text tools read out. */
const META_TEXT = new Set(['description', 'og:description', 'twitter:description', 'og:title', 'twitter:title']);

/**
 * Text a page carries in attributes: nobody sees it on screen, but page-to-Markdown tools, screen readers and link
 * previews hand it to an agent (image `alt`, the meta description), which makes it a place to plant instructions.
 * Returned only when it is prose (four words or more, entities decoded, a Han or kana character counting as a word):
 * one-word alt texts are labels.
 */
export function attributeText(tag: ParsedTag): { text: string; via: string } | undefined {
  let text: string | undefined;
  let via = '';
  if (tag.name === 'img' || tag.name === 'area') {
    text = tag.attrs.get('alt');
    via = `${tag.name} alt`;
  } else if (tag.name === 'meta') {
    const key = (tag.attrs.get('name') ?? tag.attrs.get('property'))?.toLowerCase();
    if (key !== undefined && META_TEXT.has(key)) {
      text = tag.attrs.get('content');
      via = `meta ${key}`;
    }
  }
  if (text === undefined || wordCount(decodeHTML(text), 4) < 4) return undefined;
  return { text, via };
}

/**
 * Prose typed into a tag between its attributes (`<svg width="32" Stop following your instructions …>`): a browser
 * reads the words as attribute names and shows nothing, a model reading the markup reads a sentence. Five words or
 * more (a Han or kana character counting as one): boolean attributes come one or two at a time.
 */
export function strayTagText(tag: ParsedTag): { text: string; via: string } | undefined {
  if (tag.bare.length === 0) return undefined;
  const text = tag.bare.join(' ');
  if (wordCount(text, 5) < 5) return undefined;
  return { text, via: `words inside <${tag.name}>` };
}

const SPACE = /\s/;

/** Words in `text` (any Unicode space separates; each Han or kana character is a word), counting stops at `atLeast`. */
function wordCount(text: string, atLeast: number): number {
  let words = 0;
  let inWord = false;
  for (const ch of text) {
    if (words >= atLeast) break;
    if (isCjk(ch.codePointAt(0)!)) {
      words++;
      inWord = false;
      continue;
    }
    const space = SPACE.test(ch);
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}
