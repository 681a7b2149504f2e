// Which identity provider an authorize flow claims to be, and whether the host can back the claim.

import type { BrandCatalog, Target } from '../../core/plugin-api.ts';
import { brandOwning } from '../../core/plugin-api.ts';
import { brandTokensIn } from '../_shared/brand-matching/brand-tokens.ts';
import { findImpersonation } from '../_shared/brand-matching/impersonation.ts';
import type { AuthorizeFlow } from '../_shared/oauth/authorize-flow.ts';

export interface ProviderHint {
  brand: string;
  /**
   * `param` hints are recorded but never make a mismatch: brokers (Auth0, Cognito, Supabase) name the upstream
   * provider in a parameter (`connection=google-oauth2`) on their own legitimate host.
   */
  source: 'host' | 'path' | 'path_shape' | 'param';
  value: string;
}

/** Brand tokens sit in the first path segments; the rest of an attacker-sized path adds nothing. */
const MAX_PATH_CHARS = 2048;

/** Parameters whose values are addresses or opaque blobs, never a claim about who the provider is. */
const OPAQUE_PARAMS: ReadonlySet<string> = new Set(['redirect_uri', 'state', 'nonce', 'code_challenge', 'client_id']);

function paramHints(flow: AuthorizeFlow, catalog: BrandCatalog): ProviderHint[] {
  return flow.params
    .filter((p) => !OPAQUE_PARAMS.has(p.name.toLowerCase()))
    .flatMap((p) =>
      brandTokensIn(p.value.slice(0, 256), catalog.brands).map(({ brand }) => ({
        brand: brand.id,
        source: 'param' as const,
        value: `${p.name}=${p.value.slice(0, 80)}`,
      })),
    );
}

/** Every provider the URL names, with where it names it; one hint per brand and source. */
export function providerHints(target: Target, flow: AuthorizeFlow, catalog: BrandCatalog): ProviderHint[] {
  const owner = brandOwning(target, catalog);
  const hints: ProviderHint[] = [];
  if (owner) hints.push({ brand: owner.id, source: 'host', value: target.host });
  for (const hit of findImpersonation(target, catalog)) {
    hints.push({ brand: hit.brand, source: 'host', value: hit.matched });
  }
  for (const { brand, token } of brandTokensIn(target.url.pathname.slice(0, MAX_PATH_CHARS), catalog.brands)) {
    hints.push({ brand: brand.id, source: 'path', value: token });
  }
  if (flow.providerPath) {
    hints.push({ brand: flow.providerPath, source: 'path_shape', value: target.url.pathname.slice(0, 120) });
  }
  hints.push(...paramHints(flow, catalog));
  const seen = new Set<string>();
  return hints.filter((h) => !seen.has(`${h.brand}/${h.source}`) && seen.add(`${h.brand}/${h.source}`));
}

/**
 * Hints that the host cannot back: a provider named by the host or path (or imitated by its path shape) while
 * the host is neither that provider's OAuth host nor one of its domains. A brand's own host never mismatches.
 */
export function mismatchedProviders(
  target: Target,
  hints: readonly ProviderHint[],
  catalog: BrandCatalog,
): ProviderHint[] {
  if (brandOwning(target, catalog)) return [];
  return hints.filter((h) => h.source !== 'param');
}
