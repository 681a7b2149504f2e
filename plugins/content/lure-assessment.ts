// The four wording lures: a phrase family (context and pressure) joined to the credential-funnel behaviour the
// spec pairs it with. Wording alone is a warning page or a courier's FAQ; a password or card form alone is every
// login and checkout. The brand's own site is never its own lure (Netflix really does put memberships on hold).
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
