// The one page the content detector judges, from the best source available: the browser's final DOM and observed
// behaviours when Chromium ran, otherwise the fetched HTML of the last hop with its inline scripts read statically.
import type { ScanEvidence, VendorChallenge } from '../../core/plugin-api.ts';
import { type HtmlDocument, MAX_HTML_CHARS, parseTarget, readHtml, type Target } from '../../core/plugin-api.ts';
import { type DecodedMarkup, decodeEncodedMarkup } from './encoded-markup.ts';
import { type PageBehaviors, staticBehaviors } from './script-behaviors.ts';

export interface PageView {
  source: 'browser' | 'fetched';
  /** Where the analysed page lives (after redirects), which may differ from the scanned target. */
  page: Target;
  html: string;
  doc: HtmlDocument;
  visibleText: string;
  headers: Readonly<Record<string, string>>;
  behaviors: PageBehaviors;
  /** The browser's own verdict on a vendor challenge, when it ran. */
  browserVendorChallenge?: VendorChallenge['vendor'];
  /** Markup the served page hid in encoded script literals (decoded statically; read into `doc` when no browser). */
  decoded: DecodedMarkup;
}

/** The served HTML read with the markup its scripts hide decoded and appended (bounded by MAX_HTML_CHARS). */
function staticDocument(html: string): { doc: HtmlDocument; decoded: DecodedMarkup } {
  const plain = readHtml(html);
  const decoded = decodeEncodedMarkup(plain.inlineScripts, plain.resourceUrls);
  if (!decoded.html) return { doc: plain, decoded };
  const room = Math.max(0, MAX_HTML_CHARS - decoded.html.length);
  return { doc: readHtml(`${html.slice(0, room)}\n${decoded.html}`), decoded };
}

function targetOf(url: string | undefined, fallback: Target): Target {
  if (!url || !/^https?:/i.test(url)) return fallback;
  try {
    return parseTarget(url);
  } catch {
    return fallback;
  }
}

/** One parse per scan: the `content` and `brand` plugins both read the same evidence object. */
const views = new WeakMap<ScanEvidence, PageView | undefined>();

export function pageViewOf(evidence: ScanEvidence): PageView | undefined {
  if (views.has(evidence)) return views.get(evidence);
  const view = buildPageView(evidence);
  views.set(evidence, view);
  return view;
}

/** The page one click away that the scan's one-hop follow fetched, with how the scanned page leads to it. */
export interface FollowedPageView extends PageView {
  followed: {
    url: string;
    from_url: string;
    /** `action_link`, `form_get`, `sole_link`, `meta_refresh` or `script_redirect` (core/services/scan/call-to-action.ts). */
    via: string;
    label: string;
    /** On the scanned page's own host: the same site's next step, whose facts combine with the host's. */
    same_host: boolean;
  };
}

const followedViews = new WeakMap<ScanEvidence, FollowedPageView | undefined>();

/** The followed page read statically (it is fetched, never opened in the browser), or undefined. */
export function followedViewOf(evidence: ScanEvidence): FollowedPageView | undefined {
  if (followedViews.has(evidence)) return followedViews.get(evidence);
  const follow = evidence.follow;
  const final = follow?.status === 'followed' ? follow.page?.final : undefined;
  let view: FollowedPageView | undefined;
  if (final && follow.plan && follow.from_url) {
    const html = final.body.slice(0, MAX_HTML_CHARS);
    const { doc, decoded } = staticDocument(html);
    view = {
      source: 'fetched',
      page: targetOf(final.url, evidence.target),
      html,
      doc,
      visibleText: doc.visibleText,
      headers: final.headers,
      behaviors: staticBehaviors(doc.inlineScripts, doc.metaRefresh),
      decoded,
      followed: {
        url: final.url,
        from_url: follow.from_url,
        via: follow.plan.via,
        label: follow.plan.label,
        same_host: follow.plan.same_host,
      },
    };
  }
  followedViews.set(evidence, view);
  return view;
}

function buildPageView(evidence: ScanEvidence): PageView | undefined {
  const headers = evidence.page.final?.headers ?? {};
  const browser = evidence.browser;
  const served = evidence.page.final?.body;
  if (!browser.degraded && browser.html) {
    const html = browser.html.slice(0, MAX_HTML_CHARS);
    const doc = readHtml(html);
    const decoded = served
      ? staticDocument(served.slice(0, MAX_HTML_CHARS)).decoded
      : decodeEncodedMarkup(doc.inlineScripts, doc.resourceUrls);
    return {
      source: 'browser',
      page: targetOf(browser.final_url, evidence.target),
      html,
      doc,
      visibleText: (browser.visible_text ?? doc.visibleText).replace(/\s+/g, ' ').trim(),
      headers,
      behaviors: { ...browser.behaviors, source: 'browser' },
      browserVendorChallenge: browser.behaviors.vendor_challenge,
      decoded,
    };
  }
  const final = evidence.page.final;
  if (!final) return undefined;
  const html = final.body.slice(0, MAX_HTML_CHARS);
  const { doc, decoded } = staticDocument(html);
  const behaviors = staticBehaviors(doc.inlineScripts, doc.metaRefresh);
  // The fetch stopped on a page that still redirects (a loop, or a target built at run time): it navigates.
  if (final.redirect && behaviors.js_redirects === 0) behaviors.js_redirects = 1;
  return {
    source: 'fetched',
    page: targetOf(final.url, evidence.target),
    html,
    doc,
    visibleText: doc.visibleText,
    headers,
    behaviors,
    decoded,
  };
}
