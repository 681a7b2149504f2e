// The four wording lures: a phrase family (context and pressure) joined to the credential-funnel behaviour the
// spec pairs it with. Wording alone is a warning page or a courier's FAQ; a password or card form alone is every
// login and checkout. The brand's own site is never its own lure (Netflix really does put memberships on hold).
import type { Finding } from '../../core/plugin-api.ts';
import { brandsClaimed, MARKETPLACE_BRANDS, marketplacePathsIn, STREAMING_BRANDS } from './brand-vocabulary.ts';
import type { CredentialFunnel } from './credential-fields.ts';
import type { OffsiteCredentialCta } from './offsite-cta.ts';
import type { PageView } from './page-view.ts';
import {
  DOCUMENT_SHARE,
  MARKETPLACE,
  matchFamily,
  normalizeText,
  PARCEL_SHIPPING,
  STREAMING_CLONE,
} from './phrase-families.ts';

export interface LureVerdict {
  fires: boolean;
  phrases: string[];
}

export interface LureAssessment {
  documentShare: LureVerdict;
  parcel: LureVerdict;
  streaming: LureVerdict & { brandHits: string[] };
  marketplace: LureVerdict & { brandHits: string[]; pathHits: { brand: string; path: string }[] };
}

export interface LureInput {
  view: PageView;
  funnel: CredentialFunnel;
  offsiteCtas: readonly OffsiteCredentialCta[];
  /** The page is a catalogued brand's own property. */
  brandOwned: boolean;
}

/** Lure pages are short; on an article-length page only its lead (title, headings, opening text) tells its story. */
const KIT_PAGE_CHARS = 5_000;
const LEAD_CHARS = 2_000;

/** The text a lure must be found in: the whole of a kit-sized page, else the page's lead. */
function lureText(view: PageView): string {
  if (view.visibleText.length <= KIT_PAGE_CHARS) return normalizeText(`${view.doc.title} . ${view.visibleText}`);
  return normalizeText(
    `${view.doc.title} . ${view.doc.headings.slice(0, 10).join(' . ')} . ${view.visibleText.slice(0, LEAD_CHARS)}`,
  );
}

export function assessLures({ view, funnel, offsiteCtas, brandOwned }: LureInput): LureAssessment {
  // A news page's account dialog ("your account has been deleted — restore your account") deep in a long page is
  // not the page's story; a kit's lure is its whole page.
  const text = lureText(view);
  const secrets = funnel.harvestsSecrets;
  const anyCredentialForm = secrets || funnel.credential_forms.length > 0;

  const documentShare = matchFamily(DOCUMENT_SHARE, text);
  // "May be on a linked page": a shared-platform tenant that sends its visitor off-site to sign in.
  const documentShareBehaviour = anyCredentialForm || offsiteCtas.length > 0;

  const parcel = matchFamily(PARCEL_SHIPPING, text);

  const streamingBrands = brandsClaimed(STREAMING_BRANDS, text, view.page);
  const streaming = matchFamily(STREAMING_CLONE, text, streamingBrands);

  const marketplaceBrands = brandsClaimed(MARKETPLACE_BRANDS, text, view.page);
  const pathHits = marketplacePathsIn(
    [view.page.url.href, ...view.doc.forms.map((f) => f.action), ...view.doc.links.map((l) => l.href)],
    view.page,
  );
  const marketplace = matchFamily(MARKETPLACE, text, [...marketplaceBrands, ...pathHits.map((p) => p.path)]);

  const allowed = !brandOwned;
  return {
    documentShare: {
      fires: allowed && documentShare.matched && documentShareBehaviour,
      phrases: documentShare.phrases,
    },
    // Parcel wording is everywhere couriers are; only a secret or card form makes it a lure.
    parcel: { fires: allowed && parcel.matched && secrets, phrases: parcel.phrases },
    streaming: {
      fires: allowed && streaming.matched && secrets,
      phrases: streaming.phrases,
      brandHits: streamingBrands,
    },
    marketplace: {
      fires: allowed && marketplace.matched && anyCredentialForm,
      phrases: marketplace.phrases,
      brandHits: marketplaceBrands,
      pathHits,
    },
  };
}

export const LURE_FLAGS = {
  documentShare: 'content:document_share_lure',
  parcel: 'content:parcel_shipping_lure',
  streaming: 'content:streaming_clone_lure',
  marketplace: 'content:marketplace_brand_lure',
} as const;

function quoted(phrases: readonly string[]): string {
  return phrases
    .slice(0, 4)
    .map((p) => `"${p}"`)
    .join(', ');
}

/** The findings of the lures that fired, in words. */
export function lureFindings(
  lures: LureAssessment,
  funnel: CredentialFunnel,
  ctas: readonly OffsiteCredentialCta[],
): Finding[] {
  const findings: Finding[] = [];
  const credentialWords = funnel.kinds.join(', ') || 'an off-site sign-in';
  if (lures.documentShare.fires) {
    findings.push({
      flag: LURE_FLAGS.documentShare,
      detail: `Document-share wording (${quoted(lures.documentShare.phrases)}) leads to credential collection (${ctas.length > 0 ? `off-site at ${ctas[0]!.registrable_domain}` : credentialWords}).`,
      evidence: { phrases: lures.documentShare.phrases, credential_kinds: funnel.kinds },
    });
  }
  if (lures.parcel.fires) {
    findings.push({
      flag: LURE_FLAGS.parcel,
      detail: `Parcel or delivery wording (${quoted(lures.parcel.phrases)}) with a form asking for ${credentialWords}.`,
      evidence: { phrases: lures.parcel.phrases, credential_kinds: funnel.kinds },
    });
  }
  if (lures.streaming.fires) {
    findings.push({
      flag: LURE_FLAGS.streaming,
      detail: `Streaming or subscription wording (${quoted(lures.streaming.phrases)}) with a form asking for ${credentialWords}.`,
      evidence: { phrases: lures.streaming.phrases, brands: lures.streaming.brandHits, credential_kinds: funnel.kinds },
    });
  }
  if (lures.marketplace.fires) {
    findings.push({
      flag: LURE_FLAGS.marketplace,
      detail: `Order, account or payment wording (${quoted(lures.marketplace.phrases)}) with a form asking for ${credentialWords}.`,
      evidence: {
        phrases: lures.marketplace.phrases,
        brands: lures.marketplace.brandHits,
        paths: lures.marketplace.pathHits,
        credential_kinds: funnel.kinds,
      },
    });
  }
  return findings;
}
