// One tag of the HTML scanner: its name, attributes and end, read left to right; a failed read reports how far it
// got so the scanner resumes there (no character is read twice).
import { isAsciiLetter } from './hidden-characters.ts';

export interface ParsedTag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  attrs: Map<string, string>;
  /**
   * Names without a value, in their own letter case: a few are boolean attributes (`checked disabled`), a run of
   * them is prose typed into the tag, which a browser hides and a model reading the markup reads.
   */
  bare: string[];
  end: number;
}

export interface NotATag {
  /** How far the attempt read. The caller resumes there, so no character is read twice whatever the input. */
  scanned: number;
}

/** Enough words of a sentence planted in a tag to screen it; the rest of a longer run is not kept. */
const MAX_BARE = 400;

/** Reads one tag starting at `<`. Linear in the characters it reads. */
export function readTag(html: string, start: number): ParsedTag | NotATag {
  let i = start + 1;
  let closing = false;
  if (html.charCodeAt(i) === 0x2f) {
    closing = true;
    i++;
  }
  if (!isAsciiLetter(html.charCodeAt(i))) return { scanned: start + 1 };
  const nameStart = i;
  while (i < html.length) {
    const c = html.charCodeAt(i);
    if (isSpace(c) || c === 0x2f || c === 0x3e) break;
    i++;
  }
  const name = html.slice(nameStart, i).toLowerCase();
  const attrs = new Map<string, string>();
  const bare: string[] = [];
  let inExpression = false;
  let selfClosing = false;
  while (i < html.length) {
    const c = html.charCodeAt(i);
    if (c === 0x3e) return { name, closing, selfClosing, attrs, bare, end: i + 1 };
    if (c === 0x2f) {
      selfClosing = true;
      i++;
      continue;
    }
    if (isSpace(c)) {
      i++;
      continue;
    }
    const an = i;
    while (i < html.length) {
      const d = html.charCodeAt(i);
      if (isSpace(d) || d === 0x3d || d === 0x3e || d === 0x2f) break;
      i++;
    }
    const rawName = html.slice(an, i);
    const attrName = rawName.toLowerCase();
    if (i === an) {
      i++;
      continue;
    }
    let value = '';
    // HTML allows space around '=' (`content = "width=device-width"`); spaces skipped here are not read again.
    while (isSpace(html.charCodeAt(i))) i++;
    if (html.charCodeAt(i) === 0x3d) {
      i++;
      while (isSpace(html.charCodeAt(i))) i++;
      const q = html.charCodeAt(i);
      if (q === 0x22 || q === 0x27) {
        const close = html.indexOf(String.fromCharCode(q), i + 1);
        if (close < 0) return { scanned: html.length };
        value = html.slice(i + 1, close);
        i = close + 1;
      } else {
        const vs = i;
        while (i < html.length) {
          const d = html.charCodeAt(i);
          if (isSpace(d) || d === 0x3e) break;
          i++;
        }
        value = html.slice(vs, i);
        // A JSX expression or template string cut by a space (`prompt={`You are …`}`): what follows is code or a
        // string of the component, not words typed into the tag.
        if (opensExpression(value)) inExpression = true;
      }
    } else if (!inExpression && bare.length < MAX_BARE) {
      bare.push(rawName);
    }
    if (attrs.size < 64) attrs.set(attrName, value);
  }
  return { scanned: html.length };
}

/** HTML white space as the tag reader skips it. */
export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** A value that opens more braces than it closes, or an odd number of backticks. */
function opensExpression(value: string): boolean {
  let depth = 0;
  let ticks = 0;
  for (let k = 0; k < value.length; k++) {
    const c = value.charCodeAt(k);
    if (c === 0x7b) depth++;
    else if (c === 0x7d) depth--;
    else if (c === 0x60) ticks++;
  }
  return depth > 0 || ticks % 2 === 1;
}
