import { defineDetector } from '../../core/detector.ts';
import { findImpersonation, type ImpersonationHit } from '../../core/url/brand-matching/impersonation.ts';
import { BrandCatalog } from '../../core/url/catalogs.ts';

const TECHNIQUE_WORDING: Record<ImpersonationHit['technique'], string> = {
  brand_token_in_subdomain: 'brand name in a subdomain',
  brand_token_in_domain: 'brand name in the domain name',
  homoglyph_lookalike: 'look-alike spelling',
  typosquat: 'one-letter misspelling',
  brand_in_userinfo: 'brand shown before "@" in the URL',
};

function describe(hit: ImpersonationHit, site: string): string {
  return `${hit.brand_name} imitated by ${TECHNIQUE_WORDING[hit.technique]} ("${hit.matched}" ~ "${hit.imitates}") on ${site}, which ${hit.brand_name} does not own`;
}

export default defineDetector({
  meta: {
    id: 'brand',
    version: '1.0.0',
    description:
      'Lexical brand impersonation: brand tokens, homoglyph and typo look-alikes of trusted brands on hosts the brand does not own.',
    surfaces: ['agent_action', 'scan'],
    flags: {
      'content:brand_impersonation': {
        description:
          'The URL imitates a trusted brand it does not belong to (brand token in the host, look-alike or misspelt brand name, brand domain in the userinfo).',
      },
    },
    timeoutMs: 1_000,
  },
  deps: { brands: BrandCatalog },
  create: ({ deps }) => ({
    detect(ctx) {
      if (!ctx.target) return { findings: [] };
      const hits = findImpersonation(ctx.target, deps.brands);
      if (hits.length === 0) return { findings: [] };
      const site = ctx.target.site;
      return {
        findings: [
          {
            flag: 'content:brand_impersonation',
            detail: hits.map((h) => describe(h, site)).join('; '),
            evidence: { impersonation: hits },
          },
        ],
        data: { lexical_impersonation: hits, impersonation_evidence: hits.map((h) => describe(h, site)) },
      };
    },
  }),
});
