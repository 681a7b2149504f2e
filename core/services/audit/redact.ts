import { stripInvisible } from '../../engine/text/normalise.ts';

/**
 * Masks secrets in a text before any of it is stored. Used for the audit preview, which keeps only a short head
 * of the prompt; the window redacted is wider than the preview so a secret cut by the preview edge is still masked.
 *
 * The text is normalised first (NFKC, invisible characters removed, whitespace folded to single spaces), so a
 * secret cannot slip past the patterns by being spelled with full-width `＝`, split by a zero-width character, or
 * broken across tabs, NBSPs and newlines.
 *
 * Every pattern is a single pass with bounded repetition; where a group repeats, a delimiter starts each round, so
 * no input can make the engine backtrack more than a constant per position (linear time; tested).
 */
const PREVIEW_CHARS = 240;
const REDACTION_WINDOW = 2048;

/** Names whose value is a secret, as a key=value, a header, a JSON field or a URL query parameter. */
const SECRET_WORD =
  'pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|session(?:[_-]?id)?|sig|signature|credentials?|cookie';
/** `aws_secret_access_key`, `x-api-key`, `refresh_token`: the word with up to four `_`/`-` joined parts around it. */
const SECRET_NAME = `(?<![A-Za-z0-9])((?:[A-Za-z0-9]{1,20}[_-]){0,4}(?:${SECRET_WORD})(?:[_-][A-Za-z0-9]{1,20}){0,4})`;
/** A quoted value (up to its closing quote) or a bare one (up to a delimiter). */
const VALUE = `(?:"[^"]{0,4096}"|'[^']{0,4096}'|[^\\s"'&,;}<>]{1,4096})`;

/** Luhn checksum over the digits of a candidate card number. */
function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * 13-19 digits, each group separated by at most two of space, dot, hyphen or slash (tabs, newlines and NBSPs are
 * spaces by then). Plain runs and space/hyphen groups are masked outright (cheap and safe); runs split by dots or
 * slashes, which could be version numbers or dates, only when the Luhn checksum holds.
 */
function maskCard(match: string): string {
  const digits = match.replace(/\D/g, '');
  if (/^[\d -]+$/.test(match) || luhnValid(digits)) return '[card]';
  return match;
}

const RULES: readonly [RegExp, string | ((match: string, ...groups: string[]) => string)][] = [
  // Private key blocks (RSA, EC, OpenSSH, PGP "PRIVATE KEY BLOCK"), up to their end line or the end of the text.
  [
    /-----BEGIN [A-Z ]{0,40}PRIVATE KEY(?: BLOCK)?-----[\s\S]{0,8192}?(?:-----END [A-Z ]{0,40}PRIVATE KEY(?: BLOCK)?-----|$)/g,
    '[private-key]',
  ],
  // Cookie and Set-Cookie header values: every name=value pair (and attribute) after the colon.
  [/\b((?:set-)?cookie) ?: ?[^\s;]{1,4096}(?:; ?[^\s;]{1,4096}){0,50}/gi, '$1: [redacted]'],
  // Authorization headers and bearer/basic tokens.
  [/\b(bearer|basic|api-key|token) [A-Za-z0-9._~+/=-]{8,}/gi, '$1 [redacted]'],
  // JSON Web Tokens.
  [/\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g, '[jwt]'],
  // Well-known key shapes: Preflight, OpenAI/Anthropic-style, AWS, GitHub (classic and fine-grained), Slack,
  // Google, Stripe.
  [
    /\b(?:pf_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{20,}|sk-[A-Za-z0-9_-]{16,}|(?:AKIA|ASIA)[0-9A-Z]{16}|github_pat_[A-Za-z0-9_]{20,}|gh[pousr]_[A-Za-z0-9]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{30,}|[rs]k_(?:live|test)_[A-Za-z0-9]{16,})/g,
    '[api-key]',
  ],
  // name=value, name: value, "name": "value", ?name=value for secret-ish names (password=, aws_secret_access_key=,
  // {"token": "…"}, ?access_token=, &sig=).
  [
    new RegExp(`${SECRET_NAME}(["']? ?[:=] ?)${VALUE}`, 'gi'),
    (_m: string, name: string, sep: string) => `${name}${sep}${sep.includes('"') ? '"[redacted]"' : '[redacted]'}`,
  ],
  // Query parameters that carry credentials under short generic names.
  [/([?&#](?:key|code|auth|apikey)=)[^&#\s"'<>]{1,4096}/gi, '$1[redacted]'],
  // Email addresses.
  [/\b[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,8}\b/g, '[email]'],
  // Card-like digit runs.
  [/\b\d(?:[ ./-]{0,2}\d){12,18}\b/g, maskCard],
];

/** NFKC, invisible characters removed, every whitespace run (tab, newline, NBSP…) one space. */
export function normaliseForRedaction(text: string): string {
  return stripInvisible(text.normalize('NFKC')).replace(/\s+/gu, ' ');
}

export function redactSecrets(text: string): string {
  let out = normaliseForRedaction(text);
  for (const [pattern, replacement] of RULES) {
    out = out.replace(pattern, replacement as (substring: string, ...args: string[]) => string);
  }
  return out;
}

/** The stored preview: redacted, whitespace folded, cut to a short head. */
export function auditPreview(text: string): string {
  const head = text.slice(0, REDACTION_WINDOW);
  const redacted = redactSecrets(head).trim();
  return redacted.length > PREVIEW_CHARS ? `${redacted.slice(0, PREVIEW_CHARS)}…` : redacted;
}
