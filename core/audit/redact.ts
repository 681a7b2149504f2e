/**
 * Masks secrets in a text before any of it is stored. Used for the audit preview, which keeps only a short head
 * of the prompt; the window redacted is wider than the preview so a secret cut by the preview edge is still masked.
 *
 * Every pattern is a single pass with bounded repetition and no nested quantifiers, so it runs in linear time.
 */
const PREVIEW_CHARS = 240;
const REDACTION_WINDOW = 2048;

const RULES: readonly [RegExp, string][] = [
  // Private key blocks (only the header survives in a short preview, but mask it anyway).
  [/-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----[\s\S]{0,4096}?(-----END [A-Z ]{0,40}PRIVATE KEY-----|$)/g, '[private-key]'],
  // Authorization headers and bearer/basic tokens.
  [/\b(bearer|basic|api-key|token)\s+[A-Za-z0-9._~+/=-]{8,}/gi, '$1 [redacted]'],
  // JSON Web Tokens.
  [/\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g, '[jwt]'],
  // Well-known key shapes: Preflight, OpenAI/Anthropic-style, AWS, GitHub, Slack, Google, Stripe.
  [
    /\b(pf_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{20,}|sk-[A-Za-z0-9_-]{16,}|AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{30,}|[rs]k_(live|test)_[A-Za-z0-9]{16,})/g,
    '[api-key]',
  ],
  // key=value secrets: password=..., api_key: "...", secret=...
  [
    /\b(pass(word|wd)?|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret)(["']?\s{0,3}[:=]\s{0,3}["']?)[^\s"'&,;]{1,200}/gi,
    '$1$3[redacted]',
  ],
  // Email addresses.
  [/\b[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(\.[A-Za-z0-9-]{1,63}){1,8}\b/g, '[email]'],
  // Card-like digit runs (13-19 digits, optional separators); masked whether or not Luhn holds: cheaper and safer.
  [/\b\d(?:[ -]?\d){12,18}\b/g, '[card]'],
];

export function redactSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement);
  return out;
}

/** The stored preview: redacted, whitespace folded, cut to a short head. */
export function auditPreview(text: string): string {
  const head = text.slice(0, REDACTION_WINDOW);
  const redacted = redactSecrets(head).replace(/\s+/g, ' ').trim();
  return redacted.length > PREVIEW_CHARS ? `${redacted.slice(0, PREVIEW_CHARS)}…` : redacted;
}
