// Folding of one text segment: entities decoded, NFKC (styled and fullwidth letters become plain), white space
// folded; case is kept for the structure checks.
import { decodeHTML } from 'entities';

/**
 * Counts letters spelled in a way that only a filter would care about: mathematical alphanumerics (U+1D400–1D7FF),
 * fullwidth ASCII, and numeric character references for plain ASCII letters (`&#x65;`).
 */
export function styledLetters(raw: string): number {
  let n = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0xd835) n++;
    else if (c >= 0xff21 && c <= 0xff5a) n++;
    else if (c === 0x26 && raw.charCodeAt(i + 1) === 0x23) {
      const semi = raw.indexOf(';', i);
      if (semi > i && semi - i <= 8) {
        const body = raw.slice(i + 2, semi);
        const cp = body[0] === 'x' || body[0] === 'X' ? Number.parseInt(body.slice(1), 16) : Number.parseInt(body, 10);
        if ((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) n++;
      }
    }
  }
  return n;
}

/**
 * NFKC, entity decoding, whitespace folding. Newlines survive (they are structure for the screen); letter case too
 * (the tokenizer lowercases words, and the screen uses capitalisation to tell headings from sentences).
 */
export function foldText(raw: string): string {
  let s = raw.indexOf('&') >= 0 ? decodeHTML(raw) : raw;
  s = s.normalize('NFKC');
  let out = '';
  let space = false;
  let newlines = 0;
  let chunkStart = 0;
  let emittedAny = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const isNl = c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029 || c === 0x0b || c === 0x0c;
    const isSp = c === 0x20 || c === 0x09 || c === 0xa0 || (c >= 0x2000 && c <= 0x200a) || c === 0x3000;
    if (!isNl && !isSp) {
      if (newlines > 0 || space) {
        if (emittedAny) out += newlines > 1 ? '\n\n' : newlines === 1 ? '\n' : ' ';
        newlines = 0;
        space = false;
      }
      // Consume the maximal run of ordinary characters in one slice.
      chunkStart = i;
      while (i + 1 < s.length) {
        const d = s.charCodeAt(i + 1);
        if (
          d === 0x0a ||
          d === 0x0d ||
          d === 0x20 ||
          d === 0x09 ||
          d === 0xa0 ||
          d === 0x0b ||
          d === 0x0c ||
          d === 0x2028 ||
          d === 0x2029 ||
          d === 0x3000 ||
          (d >= 0x2000 && d <= 0x200a)
        ) {
          break;
        }
        i++;
      }
      out += s.slice(chunkStart, i + 1);
      emittedAny = true;
    } else if (isNl) {
      // \r\n counts once.
      if (!(c === 0x0a && i > 0 && s.charCodeAt(i - 1) === 0x0d)) newlines++;
    } else {
      space = true;
    }
  }
  return out;
}
