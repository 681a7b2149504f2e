import {
  BrandCatalog,
  brandOwning,
  defineDetector,
  type Finding,
  findVendorChallenge,
  HostingCatalog,
  type PluginModule,
  type VendorChallenge,
} from '../../core/plugin-api.ts';
import { credentialFunnel, hasTextEntry } from './credential-fields.ts';
import { assessGate, isHoldingPage } from './evasion-gate.ts';
import {
  FOLLOWED_PAGE_DEFAULT,
  type FollowedPageConfig,
  followedPageConfigSchema,
  followedPageFor,
  ONE_HOP_FLAG,
  readFollowedPage,
} from './followed-page.ts';
import { KIT_FLAGS, kitSignals } from './kit-signals.ts';
import { assessLures, LURE_FLAGS, lureFindings } from './lure-assessment.ts';
import { offsiteCredentialCtas, pageSurface } from './offsite-cta.ts';
import { pageViewOf } from './page-view.ts';
import weights from './weights.json' with { type: 'json' };

const BRAND_CREDENTIAL_HARVEST = 'content:brand_credential_harvest';
const FREE_HOSTING_CREDENTIAL_FORM = 'content:free_hosting_credential_form';

const FLAGS = {
  ...LURE_FLAGS,
  offsiteCta: 'content:offsite_credential_cta',
  evasionGate: 'content:analysis_evasion_gate',
  scannerBlocked: 'content:scanner_blocked',
} as const;

/** Whether the page the scan's one-hop follow fetched is read when the scanned page asks for nothing itself. */
export type ContentConfig = FollowedPageConfig;

const detector = defineDetector<{ brands: BrandCatalog; hosting: HostingCatalog }, ContentConfig>({
  meta: {
    id: 'content',
    version: '1.1.0',
    description:
      'What the page itself says and does: lure wording joined to credential forms, off-site credential calls to action from shared-platform tenants, custom evasion gates and vendor bot challenges. Reads the browser capture when Chromium ran, else the fetched HTML and its inline scripts.',
    surfaces: ['scan'],
    flags: {
      [FLAGS.documentShare]: {
        description:
          'Document-share wording plus credential-oriented behavior (may be on a linked page, for a page on a shared multi-tenant platform whose call to action links to an unrelated registrable domain).',
      },
      [FLAGS.offsiteCta]: {
        description:
          'Page on a shared multi-tenant platform whose action link points at an unrelated registrable domain. Not raised for a site on its own domain.',
      },
      [FLAGS.evasionGate]: {
        description:
          'Scan blocked and a short custom holding page served while writing browser storage, redirecting or prompting for a permission; requires no recognized vendor challenge marker and no real page content.',
      },
      [FLAGS.scannerBlocked]: { description: 'A recognized vendor challenge was met.' },
      [FLAGS.parcel]: { description: 'Parcel or delivery wording plus stronger credential-oriented behavior.' },
      [FLAGS.streaming]: { description: 'Streaming or subscription wording plus credential-funnel behavior.' },
      [FLAGS.marketplace]: {
        description: 'Marketplace, order, account or payment wording plus credential-funnel behavior.',
      },
      // Our own flags (not named by the spec): page evidence a phishing kit carries by itself.
      [KIT_FLAGS.credentialForm]: {
        description:
          'The page asks for a password, one-time code, card, seed phrase, or posts an identity to a sign-in endpoint. Weight 0: it feeds composites.',
        extension: true,
      },
      [KIT_FLAGS.exfilSink]: {
        description: 'Credentials are sent to a chat bot, webhook or form-to-mail relay instead of a sign-in service.',
        extension: true,
      },
      [KIT_FLAGS.offsitePost]: {
        description: 'The credential form (or its script) posts to another registrable domain.',
        extension: true,
      },
      [KIT_FLAGS.obfuscated]: {
        description:
          'The page hides its markup (a form, or a document.write of a large block) in encoded script literals.',
        extension: true,
      },
      [KIT_FLAGS.accountThreat]: {
        description:
          'Account-threat wording (suspended, locked, unusual activity, verify your identity; many languages) with deadline pressure, plus a credential form.',
        extension: true,
      },
      [KIT_FLAGS.investment]: {
        description:
          'Investment or crypto return promises (many languages) with a form collecting contact or account details.',
        extension: true,
      },
      [KIT_FLAGS.seedPhrase]: {
        description: 'The page asks for a wallet recovery phrase or private key.',
        extension: true,
      },
      [KIT_FLAGS.clickFix]: {
        description:
          'ClickFix / fake captcha: instructions to open Run (Win+R), a terminal or PowerShell and paste, with a runnable command on the clipboard or on the page.',
        extension: true,
      },
      [KIT_FLAGS.fakeUpdate]: {
        description: 'Browser, plugin or codec update wording offering an executable or archive download.',
        extension: true,
      },
      [KIT_FLAGS.clonedPage]: {
        description:
          'A short page asking for credentials is a copy of another page: "saved from url" or site-copier marks, a saved-page asset folder, or a canonical URL, og:url or <base> naming another site.',
        extension: true,
      },
      [KIT_FLAGS.phpDrop]: {
        description:
          'A form asking for a password, code or card posts to a PHP script of the same site (weak alone: it corroborates identity and copy signals).',
        extension: true,
      },
      [ONE_HOP_FLAG]: {
        description:
          "The page asks for nothing itself, but its call to action (a sign-in or continue link, a GET form, its only link, a redirect) leads to a page that asks for a password, code, card or sign-in; that page's own signals are reported with its URL. Weight 0: what the followed page shows carries the weight.",
        extension: true,
      },
      [BRAND_CREDENTIAL_HARVEST]: {
        description: 'Composite: brand impersonation plus a credential form.',
        composite: true,
        extension: true,
      },
      [FREE_HOSTING_CREDENTIAL_FORM]: {
        description: 'Composite: a credential form on a free-hosting tenant.',
        composite: true,
        extension: true,
      },
    },
    configSchema: followedPageConfigSchema('the kit, lure and identity signals'),
    defaultConfig: FOLLOWED_PAGE_DEFAULT,
    bestEffort: true,
    timeoutMs: 2_000,
  },
  deps: { brands: BrandCatalog, hosting: HostingCatalog },
  create: ({ deps, config }) => ({
    detect(ctx) {
      const evidence = ctx.evidence;
      if (!evidence) return { findings: [] };
      const view = pageViewOf(evidence);
      if (!view) {
        return {
          findings: [],
          data: { 'content.data': { visible_text_length: 0, analysis_evasion_gate: { status: 'no_page' } } },
        };
      }
      const { doc, page } = view;
      const findings: Finding[] = [];
      const funnel = credentialFunnel(doc);
      const textEntry = hasTextEntry(doc);
      const bare = isHoldingPage({
        visibleText: view.visibleText,
        linkCount: doc.links.length,
        hasTextEntry: textEntry,
      });

      const markers = findVendorChallenge(view.html, view.headers, bare);
      const browserChallenge: VendorChallenge | undefined = view.browserVendorChallenge
        ? { vendor: view.browserVendorChallenge, marker: 'browser', source: 'browser' }
        : undefined;
      const challenge = browserChallenge ?? markers.challenge;
      if (challenge) {
        findings.push({
          flag: FLAGS.scannerBlocked,
          detail: `The page is a ${challenge.vendor} bot challenge (${challenge.marker}); the scanner did not see the site's content.`,
          evidence: { ...challenge },
        });
      }

      const gate = assessGate({
        visibleText: view.visibleText,
        linkCount: doc.links.length,
        hasTextEntry: textEntry,
        behaviors: view.behaviors,
        vendorMarker: Boolean(challenge ?? markers.anyMarker),
      });
      if (gate.status === 'evasion_gate') {
        findings.push({
          flag: FLAGS.evasionGate,
          detail: `A short custom holding page ("${gate.visible_text.slice(0, 80)}") blocked the scan while it ${gate.signals.join(', ').replaceAll('_', ' ')}; no vendor challenge marker.`,
          evidence: { signals: gate.signals, behaviors: gate.behaviors },
        });
      }

      const surface = pageSurface(page, deps.hosting);
      const ctas = offsiteCredentialCtas(doc, funnel, page, surface, deps.brands);
      if (ctas.length > 0) {
        findings.push({
          flag: FLAGS.offsiteCta,
          detail: `${page.host} is a tenant of a shared platform (${surface.provider ?? surface.suffix}) and its call to action "${ctas[0]!.text}" sends visitors to ${ctas[0]!.registrable_domain}.`,
          evidence: { ctas, surface },
        });
      }

      const brandOwned = Boolean(brandOwning(page, deps.brands));
      const kit = kitSignals(view, funnel, brandOwned);
      findings.push(...kit.findings);

      const lures = assessLures({
        view,
        funnel,
        offsiteCtas: ctas,
        brandOwned,
      });
      findings.push(...lureFindings(lures, funnel, ctas));

      // A landing page that asks for nothing: the page its call to action leads to is the rest of the funnel.
      const followedView = followedPageFor(evidence, config);
      const followed = followedView
        ? readFollowedPage(followedView, new Set(findings.map((f) => f.flag)), deps.brands)
        : undefined;
      if (followed) findings.push(...followed.findings);

      return {
        findings,
        data: {
          'content.data': {
            page_source: view.source,
            document_share_lure_phrases: lures.documentShare.phrases,
            offsite_credential_ctas: ctas,
            offsite_cta_page_surface: surface,
            analysis_evasion_gate: { status: gate.status, visible_text: gate.visible_text, behaviors: gate.behaviors },
            scanner_block_vendor_challenge: challenge ?? null,
            visible_text_length: view.visibleText.length,
            parcel_shipping_lure_phrases: lures.parcel.phrases,
            streaming_clone_lure_phrases: lures.streaming.phrases,
            streaming_clone_brand_hits: lures.streaming.brandHits,
            marketplace_brand_lure_phrases: lures.marketplace.phrases,
            marketplace_brand_hits: lures.marketplace.brandHits,
            marketplace_brand_path_hits: lures.marketplace.pathHits,
            credential_fields: funnel.kinds,
            followed_page: followed?.data ?? null,
            ...kit.data,
          },
        },
      };
    },
  }),
});

export default detector;

/** Its one line in plugins/index.ts: the detector, the weights shipped beside it and any role it fills. */
export const plugin: PluginModule = { detector, weights };
