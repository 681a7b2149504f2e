// The page one click away (the scan's one-hop follow, core/services/scan/one-hop-follow.ts), read like the scanned page when
// the scanned page itself asks for nothing: a landing page whose call to action leads to the credential page is one
// funnel, so what the credential page shows counts. Every finding names the followed page and how it was reached.
import { type BrandCatalog, brandOwning, type Finding, type ScanEvidence } from '../../core/plugin-api.ts';
import { credentialFunnel } from './credential-fields.ts';
import { KIT_FLAGS, kitSignals } from './kit-signals.ts';
import { assessLures, lureFindings } from './lure-assessment.ts';
import { type FollowedPageView, followedViewOf, pageViewOf } from './page-view.ts';

export const ONE_HOP_FLAG = 'content:credential_page_one_hop';

const VIA_WORDS: Record<string, string> = {
  action_link: 'call-to-action link',
  form_get: 'form',
  sole_link: 'only link',
  meta_refresh: 'delayed refresh',
  script_redirect: 'script redirect',
};

/** The switch every reader of the followed page (content, brand) declares, so the two are configured alike. */
export interface FollowedPageConfig {
  readFollowedPage: boolean;
}

export const FOLLOWED_PAGE_DEFAULT: FollowedPageConfig = { readFollowedPage: true };

export function followedPageConfigSchema(whatIsRead: string): Record<string, unknown> {
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      readFollowedPage: {
        type: 'boolean',
        description: `read ${whatIsRead} of the page one click away (the scan's one-hop follow) when the page asks for no secret`,
      },
    },
    required: ['readFollowedPage'],
  };
}

/** The page one click away, when reading it is switched on and the scanned page itself asks for no secret. */
export function followedPageFor(evidence: ScanEvidence, config: FollowedPageConfig): FollowedPageView | undefined {
  if (!config.readFollowedPage) return undefined;
  const main = pageViewOf(evidence);
  if (main && credentialFunnel(main.doc).harvestsSecrets) return undefined;
  return followedViewOf(evidence);
}

export interface FollowedPageReading {
  findings: Finding[];
  data: Record<string, unknown>;
}

/** How a finding from the followed page names its page: the URL and the step that leads there. */
export function followedEvidence(view: FollowedPageView): Record<string, unknown> {
  const { url, from_url, via, label, same_host } = view.followed;
  return { url, from_url, via, label, same_host };
}

export function markFollowed(finding: Finding, view: FollowedPageView): Finding {
  const via = VIA_WORDS[view.followed.via] ?? view.followed.via;
  return {
    flag: finding.flag,
    detail:
      `On ${view.followed.url}, one click away (the page's ${via}${view.followed.label ? ` "${view.followed.label.slice(0, 60)}"` : ''}): ${finding.detail ?? ''}`.trim(),
    evidence: { ...finding.evidence, followed_page: followedEvidence(view) },
  };
}

/**
 * The followed page's credential funnel and kit signals. `already`: flags the scanned page raised itself (its own
 * evidence stays first). `content:credential_form` joins only from the same host: composites read it with the
 * scanned host's facts (a free-hosting tenant asking for credentials), and another site's sign-in is not the
 * tenant's own form; that site's identity, copy and lure signals count wherever it is.
 */
export function readFollowedPage(
  view: FollowedPageView,
  already: ReadonlySet<string>,
  brands: BrandCatalog,
): FollowedPageReading {
  const funnel = credentialFunnel(view.doc);
  const collects = funnel.harvestsSecrets || funnel.credential_forms.length > 0;
  const data = { ...followedEvidence(view), credential_kinds: funnel.kinds, read: collects };
  if (!collects) return { findings: [], data };
  const brandOwned = Boolean(brandOwning(view.page, brands));
  const kit = kitSignals(view, funnel, brandOwned);
  const lures = assessLures({ view, funnel, offsiteCtas: [], brandOwned });
  const own = [...kit.findings, ...lureFindings(lures, funnel, [])].filter(
    (f) => !already.has(f.flag) && (f.flag !== KIT_FLAGS.credentialForm || view.followed.same_host),
  );
  const step: Finding = {
    flag: ONE_HOP_FLAG,
    detail: `The page asks for nothing itself, but its ${VIA_WORDS[view.followed.via] ?? view.followed.via}${view.followed.label ? ` ("${view.followed.label.slice(0, 60)}")` : ''} leads to ${view.followed.url}, which asks for ${funnel.kinds.join(', ').replaceAll('_', ' ') || 'a sign-in'}.`,
    evidence: { followed_page: followedEvidence(view), credential_kinds: funnel.kinds },
  };
  return { findings: [step, ...own.map((f) => markFollowed(f, view))], data };
}
