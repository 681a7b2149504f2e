// One tag of the HTML scanner: its name, attributes and end, read left to right; a failed read reports how far it
// got so the scanner resumes there (no character is read twice).
import { isAsciiLetter } from './hidden-characters.ts';

export interface ParsedTag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  attrs: Map<string, string>;
  end: number;
}

export interface NotATag {
  /** How far the attempt read. The caller resumes there, so no character is read twice whatever the input. */
  scanned: number;
}

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
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x2f || c === 0x3e) break;
    i++;
  }
  const name = html.slice(nameStart, i).toLowerCase();
  const attrs = new Map<string, string>();
  let selfClosing = false;
  while (i < html.length) {
    const c = html.charCodeAt(i);
    if (c === 0x3e) return { name, closing, selfClosing, attrs, end: i + 1 };
    if (c === 0x2f) {
      selfClosing = true;
      i++;
      continue;
    }
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) {
      i++;
      continue;
    }
    const an = i;
    while (i < html.length) {
      const d = html.charCodeAt(i);
      if (d === 0x3d || d === 0x3e || d === 0x20 || d === 0x09 || d === 0x0a || d === 0x0d || d === 0x2f) break;
      i++;
    }
    const attrName = html.slice(an, i).toLowerCase();
    if (i === an) {
      i++;
      continue;
    }
    let value = '';
    if (html.charCodeAt(i) === 0x3d) {
      i++;
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
          if (d === 0x3e || d === 0x20 || d === 0x09 || d === 0x0a || d === 0x0d) break;
          i++;
        }
        value = html.slice(vs, i);
      }
    }
    if (attrs.size < 64) attrs.set(attrName, value);
  }
  return { scanned: html.length };
}
