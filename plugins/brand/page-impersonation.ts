// A scanned page that presents itself as a trusted brand's sign-in: the brand in the title and a password field,
// on a site that brand does not own. Deliberately narrow; the URL-only check stays the main signal.

import type { BrandEntry } from '../../core/rules/ruleset.ts';
import type { PageCues } from '../../core/scan/page-cues.ts';
import { COMMON_WORD_TOKENS } from '../../core/url/brand-matching/brand-tokens.ts';
import { wordRuns } from '../../core/url/brand-matching/lexicon.ts';
import { brandOwning } from '../../core/url/brand-matching/ownership.ts';
import type { BrandCatalog } from '../../core/url/catalogs.ts';
import type { Target } from '../../core/url/target.ts';

export interface PageImpersonation {
  brand: string;
  brand_name: string;
  title: string;
}

/** Brand names that are everyday words ("Chase your goals", "Steam cleaning", "Ups and downs") never count here. */
const EVERYDAY_NAMES: ReadonlySet<string> = new Set([...COMMON_WORD_TOKENS, 'steam', 'ups']);

function containsWords(haystack: readonly string[], needle: readonly string[]): boolean {
  for (let i = 0; i + needle.length <= haystack.length; i++) {
    if (needle.every((w, j) => haystack[i + j] === w)) return true;
  }
  return false;
}

/** The brand's display name as whole words: "Bank of America", "Amazon.com" (the `.com` is its own word). */
function titleNames(brand: BrandEntry, titleWords: readonly string[]): boolean {
  const name = wordRuns(brand.name);
  if (name.length === 0 || EVERYDAY_NAMES.has(name.join(' '))) return false;
  return containsWords(titleWords, name);
}

/** "Sign in with Google", "Continue with Microsoft": a site offering the brand's login, not posing as it. */
function offersBrandLogin(titleWords: readonly string[], brand: BrandEntry): boolean {
  const name = wordRuns(brand.name);
  return containsWords(titleWords, ['with', ...name]);
}

/** A title naming the site itself ("Quillmere Studio | ...") is the site speaking for itself. */
function namesOwnSite(titleWords: readonly string[], target: Target): boolean {
  const label = wordRuns(target.site.split('.')[0] ?? '');
  return label.length > 0 && containsWords(titleWords, label);
}

export function pageImpersonation(
  target: Target,
  cues: PageCues | undefined,
  brands: BrandCatalog,
): PageImpersonation[] {
  if (!cues?.title || !cues.password_field || brandOwning(target, brands)) return [];
  const words = wordRuns(cues.title, 300);
  if (namesOwnSite(words, target)) return [];
  return brands.brands
    .filter((b) => titleNames(b, words) && !offersBrandLogin(words, b))
    .map((b) => ({ brand: b.id, brand_name: b.name, title: cues.title! }));
}
