// Word-level vocabulary shared by the URL detectors (brand, infrastructure, oauth): how a hostname, path or page
// text is cut into words, and which words phishing kits pair with a brand to make a credential lure.

/** Hostnames are at most 253 chars and paths rarely need more than this to show a lure; longer input is cut. */
const MAX_RUN_INPUT = 4096;
/** DNS labels are at most 63 chars; a longer "word" is noise (a hash, a blob) and never names a brand. */
const MAX_RUN_LENGTH = 63;

/** Lower-case alphanumeric runs of `text`, in order: the unit every token and lure-word match works on. */
export function wordRuns(text: string, maxChars = MAX_RUN_INPUT): string[] {
  return text
    .slice(0, maxChars)
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((run) => run.length > 0 && run.length <= MAX_RUN_LENGTH);
}

/** Words a credential lure puts in a hostname or path (`secure-login`, `/account/verify`, `wallet-connect`). */
export const CREDENTIAL_LURE_WORDS: ReadonlySet<string> = new Set([
  'login',
  'logon',
  'signin',
  'verify',
  'verification',
  'validate',
  'account',
  'accounts',
  'secure',
  'security',
  'update',
  'wallet',
  'password',
  'passwd',
  'credential',
  'credentials',
  'unlock',
  'suspended',
  'recovery',
  'billing',
  'confirm',
  'webmail',
  'reset',
  'authenticate',
  '2fa',
  'mfa',
  'sso',
]);

/**
 * Lure words that may be glued to another word (`paypallogin`, `myaccount`, `accountverify`). Only words of five
 * letters or more qualify: short ones (`sso`, `mfa`) end too many ordinary words.
 */
const GLUEABLE_MIN_LENGTH = 5;

/** The credential-lure words in `text`, each once, counting glued (`secureupdate`) and split (`sign-in`) forms. */
export function lureWordsIn(text: string): string[] {
  const runs = wordRuns(text);
  const found = new Set<string>();
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i]!;
    if (CREDENTIAL_LURE_WORDS.has(run)) {
      found.add(run);
      continue;
    }
    const next = runs[i + 1];
    if (next !== undefined && CREDENTIAL_LURE_WORDS.has(run + next)) found.add(run + next);
    for (const word of CREDENTIAL_LURE_WORDS) {
      // A glued word must end the run: `designing` contains `signin` but is not a sign-in.
      if (word.length >= GLUEABLE_MIN_LENGTH && run.length > word.length && run.endsWith(word)) found.add(word);
    }
  }
  return [...found];
}

/** Page text as phrase matching wants it: bounded, lower-case, compatibility-folded, one space between words. */
export function normalizePageText(text: string, maxChars = 100_000): string {
  return text.slice(0, maxChars).normalize('NFKC').toLowerCase().replace(/\s+/g, ' ');
}
