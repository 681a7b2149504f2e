// Folding of one text segment: entities decoded, NFKC (styled and fullwidth letters become plain), white space
// folded; case is kept for the structure checks.
import { decodeHTML } from 'entities';

/**
 * Counts letters spelled in a way that only a filter would care about: mathematical alphanumerics (U+1D400–1D7FF),
 * fullwidth ASCII, and numeric character references for plain ASCII letters (`&#x65;`).
 */
/** Code units that can start a styled letter: one native scan spares plain text the loop below. */
const STYLED_START = /[\ud835\uff21-\uff5a]|&#/;

export function styledLetters(raw: string): number {
  if (!STYLED_START.test(raw)) return 0;
  let n = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0xd835) n++;
    else if (c >= 0xff21 && c <= 0xff5a) n++;
    else if (c === 0x26 && raw.charCodeAt(i + 1) === 0x23) {
      // Look for the ';' within the longest reference counted (8 characters), never further: an unbounded indexOf
      // made a megabyte of "&#" without semicolons quadratic (seconds of CPU).
      const semi = raw.slice(i + 2, i + 9).indexOf(';') + i + 2;
      if (semi > i + 1 && semi - i <= 8) {
        const body = raw.slice(i + 2, semi);
        const cp = body[0] === 'x' || body[0] === 'X' ? Number.parseInt(body.slice(1), 16) : Number.parseInt(body, 10);
        if ((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) n++;
      }
    }
  }
  return n;
}

/** 1 for a blank (space, tab, no-break and typographic spaces), 2 for a line break, 0 for everything else. */
const WHITE = new Uint8Array(65536);
for (const c of [0x20, 0x09, 0xa0, 0x3000]) WHITE[c] = 1;
for (let c = 0x2000; c <= 0x200a; c++) WHITE[c] = 1;
for (const c of [0x0a, 0x0d, 0x2028, 0x2029, 0x0b, 0x0c]) WHITE[c] = 2;

/**
 * The white-space runs that may change, found natively: two or more white-space characters, any white space other
 * than a plain space or newline, and white space at either end. A single space or newline between two other
 * characters is left as it is and never matched. Each alternative is a character class or a run of one, so matching
 * is linear (no backtracking). The `W{2,}` alternative comes first, so a match always starts where its run starts.
 */
const W = '[\\t\\n\\v\\f\\r \\u00a0\\u2000-\\u200a\\u2028\\u2029\\u3000]';
const CHANGING_RUN = new RegExp(`${W}{2,}|[\\t\\v\\f\\r\\u00a0\\u2000-\\u200a\\u2028\\u2029\\u3000]|^${W}|${W}$`, 'g');

/**
 * NFKC, entity decoding, whitespace folding. Newlines survive (they are structure for the screen); letter case too
 * (the tokenizer lowercases words, and the screen uses capitalisation to tell headings from sentences).
 *
 * A run of white space becomes one space, or one newline, or a blank line (two or more newlines; CR LF counts once);
 * leading and trailing white space goes. Only the runs that change are cut out, found by one native scan: text that
 * is already folded (most of it) comes back as the same string, and no JavaScript loop visits every character.
 */
export function foldText(raw: string): string {
  let s = raw.indexOf('&') >= 0 ? decodeHTML(raw) : raw;
  s = s.normalize('NFKC');
  const n = s.length;
  // Pieces of the result, joined once at the end (a flat string, where `+=` built a rope to flatten later).
  const out: string[] = [];
  // Start of the stretch of `s` not yet copied to `out`.
  let from = 0;
  const find = CHANGING_RUN;
  find.lastIndex = 0;
  for (let m = find.exec(s); m !== null; m = find.exec(s)) {
    const i = m.index;
    const j = i + m[0].length;
    let newlines = 0;
    for (let k = i; k < j; k++) {
      const d = s.charCodeAt(k);
      if (WHITE[d] === 2 && !(d === 0x0a && k > 0 && s.charCodeAt(k - 1) === 0x0d)) newlines++;
    }
    // Runs are maximal, so text before the run means a character was emitted before it.
    const folded = i === 0 || j === n ? '' : newlines > 1 ? '\n\n' : newlines === 1 ? '\n' : ' ';
    if (j - i !== folded.length || !s.startsWith(folded, i)) {
      out.push(s.slice(from, i), folded);
      from = j;
    }
  }
  if (from === 0) return s;
  out.push(s.slice(from));
  return out.join('');
}
