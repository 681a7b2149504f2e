// Finding brand tokens (rules/brands.json) in hostnames, paths and userinfo without tripping on ordinary words
// that happen to contain a short token (`groups` ⊃ ups, `purchase` ⊃ chase, `pineapple` ⊃ apple).
import type { BrandEntry } from '../../../core/plugin-api.ts';
import { skeleton } from './confusables.ts';
import { CREDENTIAL_LURE_WORDS, wordRuns } from './lexicon.ts';

/** From this length a token is distinctive enough to match anywhere inside a word (`paypalsecure`). */
const FREE_MATCH_MIN_LENGTH = 6;

/**
 * Words that put a brand name in a service context: a short token may be glued to one and still name the brand
 * (`chaseonline`, `upstracking`, `applestore`), and a common-word token needs one nearby.
 */
export const BRAND_CONTEXT_WORDS: ReadonlySet<string> = new Set([
  ...CREDENTIAL_LURE_WORDS,
  'support',
  'help',
  'service',
  'services',
  'online',
  'id',
  'pay',
  'payment',
  'track',
  'tracking',
  'delivery',
  'parcel',
  'package',
  'shipping',
  'express',
  'bank',
  'banking',
  'portal',
  'alert',
  'alerts',
  'store',
  'mail',
  'app',
]);

/**
 * Brand tokens that are also everyday English words (a farm shop called `apple-orchard`, `chase-realty`).
 * In a hostname they only count next to a brand-context word or the brand's own domain name. `amazon` is left
 * out on purpose: Amazon lures are far more common than rainforest tours.
 */
export const COMMON_WORD_TOKENS: ReadonlySet<string> = new Set(['apple', 'chase', 'slack', 'outlook', 'adobe']);

export interface BrandTokenHit {
  brand: BrandEntry;
  token: string;
  /** The word of the input the token was found in. */
  run: string;
}

interface IndexedToken {
  brand: BrandEntry;
  token: string;
  folded: string;
}

const indexCache = new WeakMap<readonly BrandEntry[], IndexedToken[]>();

/** Tokens longest first, so `microsoftonline` is reported rather than the `microsoft` inside it. */
function indexTokens(brands: readonly BrandEntry[]): IndexedToken[] {
  let index = indexCache.get(brands);
  if (!index) {
    index = brands
      .flatMap((brand) => brand.tokens.map((token) => ({ brand, token, folded: skeleton(token) })))
      .sort((a, b) => b.token.length - a.token.length);
    indexCache.set(brands, index);
  }
  return index;
}

function runNamesToken(run: string, token: string): boolean {
  if (token.length >= FREE_MATCH_MIN_LENGTH) return run.includes(token);
  return run === token || (run.startsWith(token) && BRAND_CONTEXT_WORDS.has(run.slice(token.length)));
}

function collect(runs: readonly string[], form: (t: IndexedToken) => string, brands: readonly BrandEntry[]) {
  const found = new Map<string, BrandTokenHit>();
  for (const run of runs) {
    for (const entry of indexTokens(brands)) {
      if (!found.has(entry.brand.id) && runNamesToken(run, form(entry))) {
        found.set(entry.brand.id, { brand: entry.brand, token: entry.token, run });
      }
    }
  }
  return [...found.values()];
}

/** Brands named in `text` by one of their tokens (one hit per brand, the longest token). */
export function brandTokensIn(text: string, brands: readonly BrandEntry[]): BrandTokenHit[] {
  return collect(wordRuns(text), (t) => t.token, brands);
}

/**
 * Brands named in `text` once both sides are folded to their visual skeleton (`pаypal`, `rnicrosoft`, `paypa1`).
 * The caller decides whether a hit is a look-alike: it is one only when the plain text did not name the brand.
 */
export function lookalikeBrandTokensIn(text: string, brands: readonly BrandEntry[]): BrandTokenHit[] {
  return collect(wordRuns(skeleton(text)), (t) => t.folded, brands);
}

/** Every token of the catalog with its skeleton, longest first (for edit-distance comparisons). */
export function foldedTokens(brands: readonly BrandEntry[]): readonly IndexedToken[] {
  return indexTokens(brands);
}
