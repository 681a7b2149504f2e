// The bounded HTML tokenizer: text runs, start tags (name and bounded source), end tags and raw-text element bodies,
// in one forward pass. Every step moves forward with indexOf or a bounded sticky regex, a tag is at most
// MAX_TAG_CHARS long, and the quote-aware search for a tag's end has a per-document budget, so a hostile page costs
// time proportional to its length. html-document.ts (readHtml) reads pages with it.

import { decodeHTMLAttribute } from 'entities';
import { asciiLowerCase } from './normalise.ts';

/** A longer tag is garbage or an attack; it is skipped, not parsed. */
export const MAX_TAG_CHARS = 4096;

/** Elements whose content is not markup: their text is read raw up to the matching close tag. */
export const RAW_TEXT_ELEMENTS: ReadonlySet<string> = new Set([
  'script',
  'style',
  'title',
  'textarea',
  'noscript',
  'template',
  'xmp',
]);
const TAG_OPEN = /<(\/?)([a-zA-Z][a-zA-Z0-9-]{0,31})/y;
const ATTRIBUTE = /([^\s"'>/=]{1,64})(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]{1,2048})))?/g;

/** Attributes of one start tag (its source, already bounded). Names lower-cased, values entity-decoded. */
export function parseAttributes(tagSource: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  const body = tagSource.replace(/^<[a-zA-Z][a-zA-Z0-9-]{0,31}/, '').replace(/\/?>$/, '');
  for (const m of body.matchAll(ATTRIBUTE)) {
    const name = m[1]!.toLowerCase();
    if (name in attrs) continue;
    attrs[name] = decodeHTMLAttribute(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return attrs;
}

/**
 * Characters the quote-aware tag-end search may read per document, beyond the document's own length. Honest
 * markup reads each tag once (the whole page at most); markup built so that every `<` starts a MAX_TAG_CHARS scan
 * that fails (`">x"<a=` repeated) would cost MAX_TAG_CHARS per tag. Past the budget a tag ends at its next `>`.
 */
const TAG_SCAN_SLACK = 1_000_000;

/** Index just past the `>` closing the tag at `start`, honouring quoted values; -1 if none within the bound. */
function tagEnd(html: string, start: number, budget: { chars: number }): number {
  if (budget.chars <= 0) {
    const gt = html.indexOf('>', start + 1);
    return gt < 0 || gt - start > MAX_TAG_CHARS ? -1 : gt + 1;
  }
  let quote = '';
  const limit = Math.min(html.length, start + MAX_TAG_CHARS);
  for (let i = start + 1; i < limit; i++) {
    const c = html[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '>') {
      budget.chars -= i - start;
      return i + 1;
    }
  }
  budget.chars -= limit - start;
  return -1;
}

export interface HtmlTokenHandler {
  /** Text between tags, entities not decoded. A stray `<` (no tag name after it) arrives as its own text. */
  text(raw: string): void;
  /** A start tag: its lower-cased name and its source from `<` to `>` (at most MAX_TAG_CHARS). */
  startTag(name: string, source: string): void;
  endTag(name: string): void;
  /** The body of a raw-text element, right after its start tag: up to `</name`, or to the end if unclosed. */
  rawText(name: string, content: string): void;
}

/**
 * Tokenizes `html` whole (callers cap it first). Comments, `<!doctype>`, `<?xml>` and tags too long to be honest
 * are skipped; an unclosed comment or raw-text element runs to the end.
 */
export function tokenizeHtml(html: string, handler: HtmlTokenHandler): void {
  const lower = asciiLowerCase(html);
  const tagScan = { chars: html.length + TAG_SCAN_SLACK };
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      handler.text(html.slice(i));
      break;
    }
    if (lt > i) handler.text(html.slice(i, lt));
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      i = end < 0 ? html.length : end + 3;
      continue;
    }
    TAG_OPEN.lastIndex = lt;
    const open = TAG_OPEN.exec(html);
    // Only a real tag name earns the (bounded) search for its end: a run of stray `<` must cost one step each, not
    // MAX_TAG_CHARS each (500 000 of them took 40 s before).
    const end = open ? tagEnd(html, lt, tagScan) : -1;
    if (!open || end < 0) {
      // `<!doctype>`, `<?xml>`, a stray `<`, or a tag too long to be honest: skip past it.
      if (open || html[lt + 1] === '!' || html[lt + 1] === '?') {
        const gt = html.indexOf('>', lt);
        i = gt < 0 ? html.length : gt + 1;
      } else {
        handler.text('<');
        i = lt + 1;
      }
      continue;
    }
    const closing = open[1] === '/';
    const name = open[2]!.toLowerCase();
    i = end;
    if (closing) {
      handler.endTag(name);
      continue;
    }
    handler.startTag(name, html.slice(lt, end));
    if (RAW_TEXT_ELEMENTS.has(name)) {
      const close = lower.indexOf(`</${name}`, i);
      const contentEnd = close < 0 ? html.length : close;
      handler.rawText(name, html.slice(i, contentEnd));
      const gt = close < 0 ? -1 : html.indexOf('>', close);
      i = gt < 0 ? html.length : gt + 1;
    }
  }
}
