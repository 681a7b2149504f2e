// Fake consent and login handoffs in page text: wording that asks the reader to sign in with, or grant access to,
// an account of another service, on a page that is not that service and requests no explicit scopes.
import { normalizePageText } from '../_shared/brand-matching/lexicon.ts';

/**
 * Phrases that hand the reader's account to the page. Each is a fixed string or a regex with bounded repeats
 * only, matched on normalised text, so the scan is linear. Bare button labels ("Sign in with Google") are left
 * out: every legitimate social-login page has them.
 */
const HANDOFF_PHRASES: readonly { term: string; pattern: RegExp }[] = [
  {
    term: 'sign in with your account to continue',
    pattern: /(?:sign|log) ?in with your [a-z0-9 ]{0,30}account to (?:continue|proceed|view|access|open|verify)/,
  },
  { term: 'continue to verify your account', pattern: /continue to verify your [a-z ]{0,20}account/ },
  {
    term: 'verify your account to continue',
    pattern: /verify your [a-z ]{0,20}account to (?:continue|proceed|view|access)/,
  },
  { term: 'authorize access', pattern: /authori[sz]e (?:access|this app|the app|the application)/ },
  { term: 'grant access', pattern: /grant (?:access|permission)/ },
  { term: 'allow access to your account', pattern: /allow (?:access to your|[a-z0-9 ]{1,30} to access your)/ },
  { term: 'wants to access your account', pattern: /(?:wants|would like|is requesting) (?:to access|access to) your/ },
  { term: 'confirm your identity to continue', pattern: /confirm your identity to (?:continue|proceed|access)/ },
  {
    term: 'sign in to view the document',
    pattern: /(?:sign|log) ?in to (?:view|open|access|download) (?:the|this|your) (?:document|file|message|invoice)/,
  },
];

/** The handoff phrases found in `pageText`, by their canonical term. */
export function handoffTermsIn(pageText: string): string[] {
  const text = normalizePageText(pageText);
  return HANDOFF_PHRASES.filter((p) => p.pattern.test(text)).map((p) => p.term);
}
