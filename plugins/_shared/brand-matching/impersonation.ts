// Lexical brand impersonation: what the URL alone says about pretending to be a trusted brand.
import type { BrandCatalog, BrandEntry, Target } from '../../../core/plugin-api.ts';
import { brandOwning, isBrandAccountTenant } from '../../../core/plugin-api.ts';
import {
  BRAND_CONTEXT_WORDS,
  brandTokensIn,
  COMMON_WORD_TOKENS,
  foldedTokens,
  lookalikeBrandTokensIn,
} from './brand-tokens.ts';
import { editReadsAsToken, hasNonAscii, singleEditBetween, skeleton } from './confusables.ts';
import { lureWordsIn, wordRuns } from './lexicon.ts';

export type ImpersonationTechnique =
  | 'brand_token_in_subdomain'
  | 'brand_token_in_domain'
  | 'homoglyph_lookalike'
  | 'typosquat'
  | 'brand_in_userinfo';

export interface ImpersonationHit {
  brand: string;
  brand_name: string;
  technique: ImpersonationTechnique;
  /** The label (Unicode form) or userinfo that carries the brand. */
  matched: string;
  /** The brand token or domain it imitates. */
  imitates: string;
}

interface HostLabel {
  ascii: string;
  unicode: string;
  where: 'subdomain' | 'domain';
}

/** The labels a reader takes for the site's name: subdomain labels and the registrable (or tenant) label. */
function nameLabels(target: Target): HostLabel[] {
  const ascii = target.host.split('.');
  const unicode = target.unicodeHost.split('.');
  const subdomainCount = target.subdomain ? target.subdomain.split('.').length : 0;
  const labels: HostLabel[] = [];
  for (let i = 0; i <= subdomainCount && i < ascii.length; i++) {
    labels.push({
      ascii: ascii[i]!,
      unicode: unicode[i] ?? ascii[i]!,
      where: i < subdomainCount ? 'subdomain' : 'domain',
    });
  }
  return labels;
}

/** A common-word token (`apple`, `chase`) names the brand only beside a context word or the brand's own domain. */
function tokenNamesBrand(target: Target, brand: BrandEntry, token: string): boolean {
  if (!COMMON_WORD_TOKENS.has(token)) return true;
  if (brand.domains.some((d) => target.host.includes(`${d}.`))) return true;
  return lureWordsIn(target.host).length > 0 || wordRuns(target.host).some((run) => BRAND_CONTEXT_WORDS.has(run));
}

function plainTokenHits(target: Target, label: HostLabel, catalog: BrandCatalog): ImpersonationHit[] {
  return brandTokensIn(label.ascii, catalog.brands)
    .filter(({ brand, token }) => tokenNamesBrand(target, brand, token))
    .filter(({ token }) => !isBrandAccountTenant(target, token))
    .map(({ brand, token }) => ({
      brand: brand.id,
      brand_name: brand.name,
      technique: label.where === 'subdomain' ? 'brand_token_in_subdomain' : 'brand_token_in_domain',
      matched: label.unicode,
      imitates: token,
    }));
}

/** Short tokens (`ups`, `dhl`) fold onto too many ASCII words; for them only a non-ASCII look-alike counts. */
const ASCII_LOOKALIKE_MIN_TOKEN = 5;

function lookalikeHits(label: HostLabel, catalog: BrandCatalog, spelled: ReadonlySet<string>): ImpersonationHit[] {
  const nonAscii = hasNonAscii(label.unicode);
  return lookalikeBrandTokensIn(label.unicode, catalog.brands)
    .filter(({ brand, token }) => !spelled.has(brand.id) && (nonAscii || token.length >= ASCII_LOOKALIKE_MIN_TOKEN))
    .map(({ brand, token }) => ({
      brand: brand.id,
      brand_name: brand.name,
      technique: 'homoglyph_lookalike',
      matched: label.unicode,
      imitates: token,
    }));
}

/** Domain names that are not tokens (`youtube`, `gstatic`): a label that folds onto one is a look-alike. */
function domainLookalikeHits(
  label: HostLabel,
  catalog: BrandCatalog,
  spelled: ReadonlySet<string>,
): ImpersonationHit[] {
  const folded = skeleton(label.unicode);
  const hits: ImpersonationHit[] = [];
  for (const brand of catalog.brands) {
    if (spelled.has(brand.id)) continue;
    const domain = brand.domains.find((d) => {
      const name = d.slice(0, d.indexOf('.'));
      return name.length >= ASCII_LOOKALIKE_MIN_TOKEN && name !== label.ascii && skeleton(name) === folded;
    });
    if (domain) {
      hits.push({
        brand: brand.id,
        brand_name: brand.name,
        technique: 'homoglyph_lookalike',
        matched: label.unicode,
        imitates: domain,
      });
    }
  }
  return hits;
}

/** One edit away from a token, in the registrable label or one of its hyphen parts (`paypall-secure`, `gooogle`). */
function typosquatHits(
  target: Target,
  label: HostLabel,
  catalog: BrandCatalog,
  spelled: ReadonlySet<string>,
): ImpersonationHit[] {
  const folded = skeleton(label.unicode);
  const parts = new Set([folded, ...folded.split('-')]);
  const hits = new Map<string, ImpersonationHit>();
  for (const part of parts) {
    for (const { brand, token, folded: foldedToken } of foldedTokens(catalog.brands)) {
      if (spelled.has(brand.id) || hits.has(brand.id) || !tokenNamesBrand(target, brand, token)) continue;
      const edit = singleEditBetween(part, foldedToken);
      if (edit && editReadsAsToken(edit, foldedToken)) {
        hits.set(brand.id, {
          brand: brand.id,
          brand_name: brand.name,
          technique: 'typosquat',
          matched: label.unicode,
          imitates: token,
        });
      }
    }
  }
  return [...hits.values()];
}

/** `https://paypal.com@evil.example/`: the reader takes the userinfo for the host. */
function userinfoHits(target: Target, catalog: BrandCatalog): ImpersonationHit[] {
  if (!target.userinfo) return [];
  const userinfo = target.userinfo.toLowerCase();
  const byDomain = catalog.brands.flatMap((brand) => {
    const domain = brand.domains.find((d) => userinfo.includes(d));
    return domain ? [{ brand, imitates: domain }] : [];
  });
  const byToken = brandTokensIn(userinfo, catalog.brands).map(({ brand, token }) => ({ brand, imitates: token }));
  const seen = new Set<string>();
  return [...byDomain, ...byToken]
    .filter(({ brand }) => !seen.has(brand.id) && seen.add(brand.id))
    .map(({ brand, imitates }) => ({
      brand: brand.id,
      brand_name: brand.name,
      technique: 'brand_in_userinfo',
      matched: target.userinfo!,
      imitates,
    }));
}

/**
 * Every lexical impersonation of a trusted brand in `target`, one per brand; empty on any brand's own property.
 * A brand word in the host only impersonates when the host's registrable domain is neither the brand's own nor a
 * popular site's (or an enterprise CDN's): `googlevideo.com` is Google's, `paypal.wordpress-news.example` is not.
 * The userinfo trick (`https://paypal.com@popular.example/`) still counts anywhere.
 */
export function findImpersonation(target: Target, catalog: BrandCatalog): ImpersonationHit[] {
  if (brandOwning(target, catalog)) return [];
  const hits: ImpersonationHit[] = [];
  const add = (found: readonly ImpersonationHit[]) => {
    for (const hit of found) if (!hits.some((h) => h.brand === hit.brand)) hits.push(hit);
  };
  add(userinfoHits(target, catalog));
  if (target.isIp || catalog.isEstablishedHost(target)) return hits;
  for (const label of nameLabels(target)) {
    add(plainTokenHits(target, label, catalog));
    // A brand the label spells out is no look-alike of itself, even where a common word went uncorroborated.
    const spelled = new Set(brandTokensIn(label.ascii, catalog.brands).map((h) => h.brand.id));
    add(lookalikeHits(label, catalog, spelled));
    add(domainLookalikeHits(label, catalog, spelled));
    if (label.where === 'domain') add(typosquatHits(target, label, catalog, spelled));
  }
  return hits;
}
