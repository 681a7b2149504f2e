// Base64 and hex runs decoded to text, screened as an extra segment: "aWdub3JlIHRoZSBhYm92ZQ==" reads as nothing to a
// person and to a phrase matcher, and as "ignore the above" to a model. Only runs that decode to readable text count:
// images, keys, hashes and tokens decode to bytes, and a JWT's JSON says nothing the matcher looks for.
import { base32 } from 'rfc4648';
import { forEachRun } from './char-runs.ts';

/** Characters of the standard and the URL-safe alphabet. */
const ALPHABET = new Uint8Array(128);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-') ALPHABET[ch.charCodeAt(0)] = 1;

const HEX = /^[0-9a-fA-F]+$/;

/** A run long enough to hold a sentence: 24 characters are 18 bytes of base64, 12 of hex. */
const MIN_RUN = 24;

/** At most this many characters of base64 are decoded per input: the rest of a megabyte of base64 is an attachment. */
const BUDGET = 256 * 1024;

/** Readable text: valid UTF-8 with no control characters, mostly letters and spaces, and at least three words, or
 * (Chinese and Japanese write no spaces) at least six Han or kana characters making up half of it. */
export function readable(text: string): boolean {
  if (text.includes('\uFFFD')) return false;
  let letters = 0;
  let spaces = 0;
  let cjk = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false;
    if (c === 0x20) spaces++;
    // ASCII letters, and any letter beyond Latin-1 punctuation (accents, CJK): a cheap stand-in for \p{L}.
    else if ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) letters++;
    else if (c >= 0xc0) {
      letters++;
      if (c >= 0x3040 && c <= 0x9fff) cjk++;
    }
  }
  if (cjk >= 6 && cjk * 2 >= text.length) return true;
  return spaces >= 2 && (letters + spaces) / text.length >= 0.75;
}

const BASE32_RUN = /^[A-Z2-7]+$/;

/** RFC 4648 base32 without padding (the run stops before the `=`), decoded as UTF-8; '' when the run is no whole
 * base32 text (its last character leaves bits an encoder never writes). */
function base32Text(run: string): string {
  try {
    return Buffer.from(base32.parse(run, { loose: true })).toString('utf8');
  } catch {
    return '';
  }
}

/** The readable texts hidden in base64, base32 or hex runs of `text`, one per line. */
export function decodeEncodedRuns(text: string): string {
  const out: string[] = [];
  let budget = BUDGET;
  forEachRun(text, ALPHABET, MIN_RUN, (from, to) => {
    // A run longer than what is left of the budget is cut at a 4-character boundary, where base64 groups end.
    const run = text.slice(from, Math.min(to, from + budget - (budget % 4)));
    // Hex digits are base64 characters too: "49676e6f7265…" is tried as hex first.
    if (run.length % 2 === 0 && HEX.test(run)) {
      budget -= run.length;
      const decoded = Buffer.from(run, 'hex').toString('utf8');
      if (readable(decoded)) out.push(decoded);
      return budget > 0;
    }
    // Base32 (capitals and the digits 2–7, as jailbreak kits offer it next to base64) is tried before base64, whose
    // alphabet holds it: "JFTW433SMUQGC3DM…" decodes to bytes as base64.
    if (BASE32_RUN.test(run)) {
      const decoded = base32Text(run);
      if (readable(decoded)) {
        budget -= run.length;
        out.push(decoded);
        return budget > 0;
      }
    }
    // A run of letters only, or of digits only, is a word, a name or a number, not an encoding.
    if (!/[0-9+/_-]/.test(run) && !(/[A-Z]/.test(run) && /[a-z]/.test(run))) return true;
    budget -= run.length;
    const decoded = Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
    if (readable(decoded)) out.push(decoded);
    return budget > 0;
  });
  return out.join('\n');
}
