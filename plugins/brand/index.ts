import type { PluginModule, ScanEvidence } from '../../core/plugin-api.ts';
import { BrandCatalog, type DetectorOutput, defineDetector, type Finding } from '../../core/plugin-api.ts';
import { findImpersonation, type ImpersonationHit } from '../_shared/brand-matching/impersonation.ts';
import {
  FOLLOWED_PAGE_DEFAULT,
  type FollowedPageConfig,
  followedPageConfigSchema,
  followedPageFor,
  markFollowed,
} from '../content/followed-page.ts';
import { ctSiblingImpersonation, type SiblingImpersonation } from './ct-siblings.ts';
import { type ForeignIdentity, foreignIdentityOf, foreignPageIdentity } from './foreign-identity.ts';
import { type PageImpersonation, pageImpersonation, pageImpersonationOf } from './page-impersonation.ts';
import weights from './weights.json' with { type: 'json' };

const TECHNIQUE_WORDING: Record<ImpersonationHit['technique'], string> = {
  brand_token_in_subdomain: 'brand name in a subdomain',
  brand_token_in_domain: 'brand name in the domain name',
  homoglyph_lookalike: 'look-alike spelling',
  typosquat: 'one-letter misspelling',
  brand_in_userinfo: 'brand shown before "@" in the URL',
};

export const CT_SIBLING_PREFIX = 'brand:ct_sibling_impersonation_';
export const FOREIGN_IDENTITY = 'brand:foreign_page_identity';

function describe(hit: ImpersonationHit, site: string): string {
  return `${hit.brand_name} imitated by ${TECHNIQUE_WORDING[hit.technique]} ("${hit.matched}" ~ "${hit.imitates}") on ${site}, which ${hit.brand_name} does not own`;
}

function describePage(hit: PageImpersonation, site: string): string {
  return `The page presents itself as ${hit.brand_name} (${hit.cues.join(', ').replaceAll('_', ' ')}${hit.title ? `; titled "${hit.title.slice(0, 80)}"` : ''}) and asks for ${hit.credential_kinds.join(', ').replaceAll('_', ' ') || 'a sign-in'} on ${site}, which ${hit.brand_name} does not own`;
}

function describeSibling(s: SiblingImpersonation, host: string): string {
  return `${s.sibling}, a name on the certificates of ${host}, imitates ${s.brand} (distance ${s.distance})`;
}

function describeForeign(f: ForeignIdentity, site: string): string {
  return `The page names itself "${f.name}" (${f.cues.join(', ').replaceAll('_', ' ')}${f.title ? `; titled "${f.title.slice(0, 80)}"` : ''}) and asks for ${f.credential_kinds.join(', ').replaceAll('_', ' ')} on ${site}, whose name is not "${f.name}"`;
}

function impersonationFinding(lines: string[], evidence: Record<string, unknown>): Finding[] {
  return lines.length === 0 ? [] : [{ flag: 'content:brand_impersonation', detail: lines.join('; '), evidence }];
}

/** One parametrised flag per imitated brand, each carrying its own siblings. */
function siblingFindings(siblings: readonly SiblingImpersonation[], host: string): Finding[] {
  const byBrand = new Map<string, SiblingImpersonation[]>();
  for (const s of siblings) byBrand.set(s.brand, [...(byBrand.get(s.brand) ?? []), s]);
  return [...byBrand].map(([brandId, hits]) => ({
    flag: `${CT_SIBLING_PREFIX}${brandId}`,
    detail: hits.map((s) => describeSibling(s, host)).join('; '),
    evidence: { siblings: hits },
  }));
}

/**
 * The page one click away (the scan's one-hop follow), when the scanned page asks for no secret itself: its page
 * identity counts like the scanned page's, named with its URL. Only flags the scanned page did not raise.
 */
function followedFindings(
  evidence: ScanEvidence,
  brands: BrandCatalog,
  config: FollowedPageConfig,
  already: ReadonlySet<string>,
): Finding[] {
  const view = followedPageFor(evidence, config);
  if (!view) return [];
  const page = already.has('content:brand_impersonation') ? [] : pageImpersonationOf(view, brands);
  const out: Finding[] = [];
  if (page.length > 0) {
    out.push(
      markFollowed(
        {
          flag: 'content:brand_impersonation',
          detail: page.map((p) => describePage(p, view.page.site)).join('; '),
          evidence: { page_impersonation: page },
        },
        view,
      ),
    );
  }
  const foreign =
    page.length === 0 && !already.has('content:brand_impersonation') && !already.has(FOREIGN_IDENTITY)
      ? foreignIdentityOf(view, brands)
      : undefined;
  if (foreign) {
    out.push(
      markFollowed(
        { flag: FOREIGN_IDENTITY, detail: describeForeign(foreign, view.page.site), evidence: { ...foreign } },
        view,
      ),
    );
  }
  return out;
}

function detectScan(evidence: ScanEvidence, brands: BrandCatalog, config: BrandConfig): DetectorOutput {
  const { target } = evidence;
  const lexical = findImpersonation(target, brands);
  const page = pageImpersonation(evidence, brands).filter((p) => !lexical.some((h) => h.brand === p.brand));
  const siblings = ctSiblingImpersonation(evidence, brands);
  // The long tail no brand list holds: only when no catalogued brand was matched on the URL or the page.
  const foreign = lexical.length === 0 && page.length === 0 ? foreignPageIdentity(evidence, brands) : undefined;
  const lines = [...lexical.map((h) => describe(h, target.site)), ...page.map((p) => describePage(p, target.site))];
  const findings: Finding[] = [
    ...impersonationFinding(lines, { impersonation: lexical, page_impersonation: page }),
    ...siblingFindings(siblings ?? [], target.host),
    ...(foreign
      ? [{ flag: FOREIGN_IDENTITY, detail: describeForeign(foreign, target.site), evidence: { ...foreign } }]
      : []),
  ];
  const followed = followedFindings(evidence, brands, config, new Set(findings.map((f) => f.flag)));
  return {
    findings: [...findings, ...followed],
    data: {
      'brand.data.lexical_impersonation': lexical,
      'brand.data.page_impersonation': page,
      'brand.data.impersonation_evidence': lines,
      'brand.data.foreign_page_identity': foreign ?? null,
      'brand.data.followed_page_identity': followed.map((f) => ({ flag: f.flag, evidence: f.evidence })),
      ...(siblings ? { 'brand.data.ct_sibling_impersonation': siblings } : {}),
    },
  };
}

/** Whether the page identity of the page the scan's one-hop follow fetched is read. */
export type BrandConfig = FollowedPageConfig;

const detector = defineDetector<{ brands: BrandCatalog }, BrandConfig>({
  meta: {
    id: 'brand',
    version: '1.1.0',
    description:
      'Brand impersonation: brand tokens, homoglyph and typo look-alikes of trusted brands on hosts the brand does not own; on scans also brand-titled password pages and look-alike names on the host’s certificates.',
    surfaces: ['agent_action', 'scan'],
    // On agent_action detect() reads only the URL (and page text) with immutable catalogs: its output may be reused.
    deterministicOn: ['agent_action'],
    flags: {
      'content:brand_impersonation': {
        description:
          'The URL imitates a trusted brand it does not belong to (brand token in the host, look-alike or misspelt brand name, brand domain in the userinfo); on scans also a page titled as the brand that asks for a password.',
      },
      [CT_SIBLING_PREFIX]: {
        description: 'A name on the host’s certificates closely imitates a trusted brand without being it.',
        parametrised: true,
      },
      [FOREIGN_IDENTITY]: {
        description:
          'A short sign-in page asking for a password, code or card names itself (sign-in title, site name, "Sign in to X" heading, logo, copyright, logo host) as a service that is not the site serving it, and no catalogued brand matched.',
        extension: true,
      },
    },
    configSchema: followedPageConfigSchema('the page identity'),
    defaultConfig: FOLLOWED_PAGE_DEFAULT,
    bestEffort: true,
    // Page identity parses the page (shared with `content` through one cached page view): same budget as content.
    timeoutMs: 2_000,
  },
  deps: { brands: BrandCatalog },
  create: ({ deps, config }) => ({
    detect(ctx) {
      if (ctx.surface === 'scan' && ctx.evidence) return detectScan(ctx.evidence, deps.brands, config);
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

export default detector;

/** Its one line in plugins/index.ts: the detector, the weights shipped beside it and any role it fills. */
export const plugin: PluginModule = { detector, weights };
