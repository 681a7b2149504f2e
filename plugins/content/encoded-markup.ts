// Kits hide their markup from static readers: `document.write(atob('…'))`, `unescape('%3C%66…')`,
// `decodeURIComponent`, `String.fromCharCode(60,102,…)`, `\x3c` escapes, or a long base64 blob fed to the DOM.
// This module decodes those literals (never evaluates anything) and returns the markup they carry, so the rest of
// the content detector reads the page the victim sees. Bounded: at most MAX_BLOBS literals per layer, MAX_DEPTH
// layers (a decoded script may itself decode), MAX_OUTPUT characters in all; regexes are flat with bounded classes.

import { asciiLowerCase } from '../../core/plugin-api.ts';

const MAX_BLOBS = 20;
const MAX_DEPTH = 3;
const MAX_OUTPUT = 200_000;
const MAX_LITERAL = 400_000;

export interface DecodedMarkup {
  /** Markup recovered from encoded literals, concatenated. */
  html: string;
  /** How each piece was encoded (`base64`, `percent`, `char_codes`, `hex_escape`), first occurrence order. */
  encodings: string[];
  /** Characters of encoded literal that decoded to markup. */
  encoded_chars: number;
  /** Whether a decoder call feeds the document (`document.write`, `innerHTML`, `insertAdjacentHTML`). */
  writes_document: boolean;
}

/** Decoded text counts as markup when it opens tags a page is made of. */
const MARKUP = /<(?:form|input|div|html|body|script|iframe|table|button|img|a|p|span|h[1-6]|meta|style|link)\b/i;

function fromBase64(s: string): string | undefined {
  const clean = s.replace(/\\n|\s/g, '');
  if (clean.length < 40 || clean.length % 4 === 1 || !/^[A-Za-z0-9+/=_-]+$/.test(clean)) return undefined;
  try {
    return Buffer.from(clean.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
  } catch {
    return undefined;
  }
}

function fromPercent(s: string): string | undefined {
  if (!/%[0-9a-fA-F]{2}/.test(s)) return undefined;
  try {
    return decodeURIComponent(s);
  } catch {
    // unescape()-style %uXXXX or stray percents: decode pair by pair.
    return s
      .replace(/%u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      .replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  }
}

function fromEscapes(s: string): string | undefined {
  if (!/\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}/.test(s)) return undefined;
  return s
    .replace(/\\x([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
}

function fromCharCodes(list: string): string {
  return list
    .split(',')
    .map((n) => Number.parseInt(n.trim(), /^\s*0x/i.test(n) ? 16 : 10))
    .filter((n) => Number.isFinite(n) && n > 0 && n < 0x110000)
    .map((n) => String.fromCodePoint(n))
    .join('');
}

/** String literals of a script ('…', "…", `…`) of 24 characters or more, read by one forward pass. */
function* literalsOf(source: string): Generator<string> {
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c !== '"' && c !== "'" && c !== '`') {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < source.length && source[j] !== c && (c === '`' || source[j] !== '\n')) j += source[j] === '\\' ? 2 : 1;
    if (j - i - 1 >= 24) yield source.slice(i + 1, Math.min(j, source.length));
    i = j + 1;
  }
}

/** Bodies of `<script>` elements in decoded markup, found with indexOf (linear). */
function* scriptBodies(html: string): Generator<string> {
  const lower = asciiLowerCase(html);
  let at = 0;
  for (let n = 0; n < MAX_BLOBS; n++) {
    const open = lower.indexOf('<script', at);
    if (open < 0) return;
    const gt = lower.indexOf('>', open);
    if (gt < 0) return;
    const close = lower.indexOf('</script', gt);
    yield html.slice(gt + 1, close < 0 ? html.length : close);
    if (close < 0) return;
    at = close + 8;
  }
}
const CHAR_CODES =
  /fromCharCode\(\s*((?:0x[0-9a-fA-F]{1,6}|\d{1,7})(?:\s*,\s*(?:0x[0-9a-fA-F]{1,6}|\d{1,7})){7,20000})\s*\)/g;
const DECODER_CALL = /\b(?:atob|unescape|decodeURIComponent|decodeURI|fromCharCode|escape)\s*\(/;
const DOM_SINK =
  /document\s*\.\s*write(?:ln)?\s*\(|\.innerHTML\s*=|\.outerHTML\s*=|insertAdjacentHTML\s*\(|\.srcdoc\s*=/;

function decodeLayer(script: string, out: DecodedMarkup, depth: number): void {
  if (depth > MAX_DEPTH || out.html.length >= MAX_OUTPUT) return;
  const source = script.length > MAX_LITERAL ? script.slice(0, MAX_LITERAL) : script;
  const decoderPresent = DECODER_CALL.test(source);
  if (decoderPresent && DOM_SINK.test(source)) out.writes_document = true;
  const pieces: { text: string; encoding: string; from: number }[] = [];
  let blobs = 0;
  for (const m of source.matchAll(CHAR_CODES)) {
    if (++blobs > MAX_BLOBS) break;
    pieces.push({ text: fromCharCodes(m[1]!), encoding: 'char_codes', from: m[1]!.length });
  }
  blobs = 0;
  for (const literal of literalsOf(source)) {
    if (blobs >= MAX_BLOBS) break;
    const tries: [string | undefined, string][] = [
      [fromEscapes(literal), 'hex_escape'],
      [fromPercent(literal), 'percent'],
      [fromBase64(literal), 'base64'],
    ];
    for (const [text, encoding] of tries) {
      if (text && text !== literal && MARKUP.test(text)) {
        blobs++;
        pieces.push({ text, encoding, from: literal.length });
        break;
      }
    }
  }
  for (const p of pieces) {
    if (out.html.length >= MAX_OUTPUT) break;
    const room = MAX_OUTPUT - out.html.length;
    const text = p.text.slice(0, room);
    out.html += `\n${text}`;
    out.encoded_chars += p.from;
    if (!out.encodings.includes(p.encoding)) out.encodings.push(p.encoding);
    // The decoded markup may carry scripts that decode further.
    for (const inner of scriptBodies(text)) decodeLayer(inner, out, depth + 1);
    if (/\b(?:atob|unescape|fromCharCode)\s*\(/.test(text) && !/<script\b/i.test(text))
      decodeLayer(text, out, depth + 1);
  }
}

/** Markup hidden in the page's inline scripts (and in `data:text/html;base64` frames), decoded without running it. */
export function decodeEncodedMarkup(inlineScripts: readonly string[], resourceUrls: readonly string[]): DecodedMarkup {
  const out: DecodedMarkup = { html: '', encodings: [], encoded_chars: 0, writes_document: false };
  for (const script of inlineScripts.slice(0, 50)) decodeLayer(script, out, 1);
  for (const url of resourceUrls.slice(0, 20)) {
    const m = /^data:text\/html;base64,([A-Za-z0-9+/=]{40,400000})$/i.exec(url);
    const text = m ? fromBase64(m[1]!) : undefined;
    if (text && MARKUP.test(text) && out.html.length < MAX_OUTPUT) {
      out.html += `\n${text.slice(0, MAX_OUTPUT - out.html.length)}`;
      out.encoded_chars += m![1]!.length;
      if (!out.encodings.includes('base64')) out.encodings.push('base64');
    }
  }
  return out;
}
