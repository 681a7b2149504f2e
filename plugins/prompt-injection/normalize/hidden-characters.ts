// Invisible characters: messages hidden in Unicode tag characters or zero-width binary are decoded, and every
// character a renderer draws as nothing is stripped before matching, so it cannot split a keyword.
import type { HiddenMessage } from '../normalize.ts';

const ZW_SPACE = 0x200b;
const ZW_NON_JOINER = 0x200c;
const ZW_JOINER = 0x200d;

/** Characters a renderer draws as nothing. Stripped before matching so they cannot split a keyword. */
function isInvisible(cp: number): boolean {
  return (
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2060 && cp <= 0x2064) ||
    (cp >= 0x2066 && cp <= 0x2069) ||
    cp === 0xfeff ||
    cp === 0x00ad ||
    cp === 0x180e ||
    cp === 0x034f ||
    (cp >= 0xe0000 && cp <= 0xe007f)
  );
}

export function isAsciiLetter(cp: number): boolean {
  return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a);
}

const MIN_HIDDEN_MESSAGE = 8;

/**
 * Unicode tag characters mirror ASCII and render as nothing. Emoji subdivision flags (🏴 + tag letters + U+E007F) use
 * them legitimately, so a run that follows U+1F3F4 and is closed by CANCEL TAG within a few letters is left alone.
 */
export function decodeTagRuns(text: string, out: HiddenMessage[]): void {
  // Every tag character is encoded with the high surrogate U+DB40.
  if (text.indexOf('\udb40') < 0) return;
  let run = '';
  let prev = 0;
  let runAfterBlackFlag = false;
  const flush = (closedByCancel: boolean) => {
    if (run.length === 0) return;
    const isFlag = runAfterBlackFlag && closedByCancel && run.length <= 7;
    if (!isFlag && run.trim().length >= MIN_HIDDEN_MESSAGE) out.push({ encoding: 'tag_characters', text: run });
    run = '';
  };
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xe0020 && cp <= 0xe007e) {
      if (run.length === 0) runAfterBlackFlag = prev === 0x1f3f4;
      if (run.length < 4096) run += String.fromCharCode(cp - 0xe0000);
    } else if (cp === 0xe007f) {
      flush(true);
    } else if (cp !== 0xe0001) {
      flush(false);
    }
    prev = cp;
  }
  flush(false);
}

function printableRatio(s: string): number {
  if (s.length === 0) return 0;
  let ok = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 0x20 && c < 0x7f) || c === 0x0a) ok++;
  }
  return ok / s.length;
}

function bitsToText(bits: string, width: number): string {
  let out = '';
  for (let i = 0; i + width <= bits.length && out.length < 4096; i += width) {
    out += String.fromCharCode(Number.parseInt(bits.slice(i, i + width), 2));
  }
  return out;
}

/**
 * Zero-width steganography writes bits as two zero-width characters (usually ZWSP/ZWNJ), optionally with ZWJ between
 * bytes. Emoji ZWJ sequences and Persian ZWNJ only ever produce a handful of these, far below the threshold.
 */
export function decodeZeroWidthBinary(text: string, out: HiddenMessage[]): void {
  if (text.indexOf('\u200b') < 0 && text.indexOf('\u200c') < 0) return;
  let bits = '';
  const groups: string[] = [];
  let group = '';
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === ZW_SPACE || c === ZW_NON_JOINER) {
      const b = c === ZW_SPACE ? '0' : '1';
      bits += b;
      group += b;
      count++;
    } else if (c === ZW_JOINER || c === 0x2060) {
      if (group.length > 0 && groups.length < 8192) groups.push(group);
      group = '';
    }
    if (bits.length > 65536) break;
  }
  if (group.length > 0) groups.push(group);
  if (count < (8 * MIN_HIDDEN_MESSAGE) / 2) return;
  const candidates: string[] = [];
  if (groups.length >= 4) {
    const fromGroups = (invert: boolean) => {
      let s = '';
      for (const g of groups) {
        if (g.length > 16) return '';
        const v = Number.parseInt(invert ? flip(g) : g, 2);
        s += String.fromCharCode(v);
      }
      return s;
    };
    candidates.push(fromGroups(false), fromGroups(true));
  }
  candidates.push(bitsToText(bits, 8), bitsToText(flip(bits), 8));
  let best = '';
  for (const c of candidates) if (printableRatio(c) > printableRatio(best)) best = c;
  if (best.trim().length >= MIN_HIDDEN_MESSAGE && printableRatio(best) >= 0.9) {
    out.push({ encoding: 'zero_width_binary', text: best });
  }
}

function flip(bits: string): string {
  let s = '';
  for (let i = 0; i < bits.length; i++) s += bits[i] === '0' ? '1' : '0';
  return s;
}

/** Removes invisible characters; counts the ones sitting between two letters (interleaving). */
const ANY_INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u00ad\u180e]/;

export function stripInvisible(text: string): { text: string; interleaved: number } {
  // A single character-class test (linear, no backtracking) spares the common case the per-character walk.
  // U+034F and the tag block's high surrogate stay out of the class: a combining mark or half a pair in a character
  // class is easy to misread.
  if (!ANY_INVISIBLE.test(text) && text.indexOf('\u034f') < 0 && text.indexOf('\udb40') < 0) {
    return { text, interleaved: 0 };
  }
  let out = '';
  let interleaved = 0;
  let lastVisible = 0;
  let pendingInvisible = false;
  let chunkStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let cp = c;
    let width = 1;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      cp = text.codePointAt(i)!;
      width = cp > 0xffff ? 2 : 1;
    }
    if (isInvisible(cp)) {
      out += text.slice(chunkStart, i);
      chunkStart = i + width;
      pendingInvisible = true;
    } else {
      if (pendingInvisible && isAsciiLetter(lastVisible) && isAsciiLetter(cp)) interleaved++;
      pendingInvisible = false;
      lastVisible = cp;
    }
    i += width - 1;
  }
  out += text.slice(chunkStart);
  return { text: out, interleaved };
}
