import type { Meter } from './matcher.ts';
import { decodeByteLists } from './normalize/byte-lists.ts';
import { decodeEncodedRuns } from './normalize/encoded-runs.ts';
import { foldText, styledLetters } from './normalize/fold.ts';
import { gluedWords, unhyphenated } from './normalize/glued-words.ts';
import { decodeTagRuns, decodeZeroWidthBinary, stripInvisible } from './normalize/hidden-characters.ts';
import { extractHtml, HTML_COMMENT, looksLikeHtml } from './normalize/html-scanner.ts';
import { decodeQuotedJson } from './normalize/json-strings.ts';
import { brailleText, natoText, unstackedMarks } from './normalize/letter-codes.ts';
import { decodeMorse } from './normalize/morse.ts';
import { extractComments } from './normalize/plain-comments.ts';
import { unscramble } from './normalize/scrambled.ts';
import { spacedLetters } from './normalize/spaced-letters.ts';

export { foldText } from './normalize/fold.ts';
export { extractHtml } from './normalize/html-scanner.ts';

/**
 * Text normalisation in front of the matcher. Everything here is a single left-to-right pass (or a native call such
 * as `String.prototype.normalize`), so its cost is linear in the input whatever the input looks like. The steps
 * live in normalize/: hidden characters, the HTML scanner, Morse, base64 and hex runs, byte-code lists, spelled-out
 * letters, words glued together or broken by hyphens, reversed and ROT13 text, folding; this module runs them in order.
 */

export interface Segment {
  /** Normalised text: NFKC, entities decoded, invisible characters removed, whitespace folded (case kept). */
  text: string;
  /** True when a reader of the rendered page would not see this text (CSS-hidden, comment, decoded hidden message). */
  hidden: boolean;
  /** How the text was hidden, for the finding's marker and for tests. */
  via?: string;
  /** Letters written with look-alike code points (mathematical alphanumerics, fullwidth, numeric entities). */
  obfuscated?: boolean;
  /** Of a page's visible text: its lines of links, headings, buttons and menus (raw; compare with `lineKey`). */
  chromeLines?: string[];
}

export interface HiddenMessage {
  /** `tag_characters` (U+E0020–E007E) or `zero_width_binary`. */
  encoding: string;
  text: string;
}

export interface Normalized {
  segments: Segment[];
  /** Messages recovered from invisible encodings; each is also a hidden segment. */
  hiddenMessages: HiddenMessage[];
  /** Zero-width characters wedged inside words: a way to break naive matching without hiding anything. */
  interleavedZeroWidth: number;
  html: boolean;
}

// ---------------------------------------------------------------------------------------------------------------

export function normalize(input: string, meter?: Meter): Normalized {
  if (meter) meter.steps += input.length;
  // JSON escapes first: an escaped zero-width or tag character ("ig\u200bnore") is one like any other.
  const text = decodeQuotedJson(input);
  const hiddenMessages: HiddenMessage[] = [];
  decodeTagRuns(text, hiddenMessages);
  decodeZeroWidthBinary(text, hiddenMessages);
  const stripped = stripInvisible(text);
  const segments: Segment[] = [];
  const html = looksLikeHtml(stripped.text);
  if (html) {
    const ex = extractHtml(stripped.text, meter);
    segments.push({ text: foldText(ex.visible), hidden: false, chromeLines: ex.chrome });
    for (const h of ex.hidden) segments.push({ text: foldText(h.text), hidden: true, via: h.via });
  } else {
    const ex = extractComments(stripped.text);
    segments.push({ text: foldText(ex.visible), hidden: false, obfuscated: styledLetters(ex.visible) >= 3 });
    for (const c of ex.comments) segments.push({ text: foldText(c), hidden: true, via: HTML_COMMENT });
  }
  for (const m of hiddenMessages) segments.push({ text: foldText(m.text), hidden: true, via: m.encoding });
  // Morse code is visible but unreadable to most people: screened like text in look-alike letters.
  if (stripped.text.indexOf('.-') >= 0 || stripped.text.indexOf('-.') >= 0) {
    const morse = decodeMorse(stripped.text, meter);
    if (morse.length > 0) segments.push({ text: foldText(morse), hidden: false, via: 'morse code', obfuscated: true });
  }
  // What base64 or hex hides is screened as plain text. Not as look-alike letters: encoding a sentence is what mail and
  // APIs do to any text, so it is no sign of intent by itself (the weak phrases in it are not doubled).
  const decoded = decodeEncodedRuns(stripped.text);
  if (decoded.length > 0) segments.push({ text: foldText(decoded), hidden: false, via: 'base64 or hex' });
  // Byte codes with separators ("\x49\x67…", "%49%67…", "73 103 110…") are rarer than base64 in honest text and
  // need a request to be read: screened as look-alike letters.
  const bytes = decodeByteLists(stripped.text);
  if (bytes.length > 0) segments.push({ text: foldText(bytes), hidden: false, via: 'byte codes', obfuscated: true });
  // Braille cells, the NATO spelling alphabet and letters under stacked combining marks: codes a model reads and a
  // word list does not, and rare in honest text; screened as look-alike letters.
  const braille = brailleText(stripped.text);
  if (braille.length > 0) segments.push({ text: foldText(braille), hidden: false, via: 'braille', obfuscated: true });
  const nato = natoText(stripped.text);
  if (nato.length > 0) segments.push({ text: foldText(nato), hidden: false, via: 'nato alphabet', obfuscated: true });
  const unstacked = unstackedMarks(stripped.text);
  if (unstacked.length > 0)
    segments.push({ text: foldText(unstacked), hidden: false, via: 'stacked marks', obfuscated: true });
  const spelled = spacedLetters(stripped.text);
  if (spelled.length > 0)
    segments.push({ text: foldText(spelled), hidden: false, via: 'spelled-out letters', obfuscated: true });
  const { reversed, rotated, gluedAt } = unscramble(stripped.text);
  const glued = gluedWords(stripped.text, gluedAt);
  if (glued.length > 0) segments.push({ text: foldText(glued), hidden: false, via: 'glued words', obfuscated: true });
  const joined = unhyphenated(stripped.text);
  if (joined.length > 0)
    segments.push({ text: foldText(joined), hidden: false, via: 'hyphen-broken words', obfuscated: true });
  if (reversed.length > 0)
    segments.push({ text: foldText(reversed), hidden: false, via: 'reversed', obfuscated: true });
  if (rotated.length > 0) segments.push({ text: foldText(rotated), hidden: false, via: 'rot13', obfuscated: true });
  return {
    segments: segments.filter((s) => s.text.length > 0),
    hiddenMessages,
    interleavedZeroWidth: stripped.interleaved,
    html,
  };
}
