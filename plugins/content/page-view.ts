// The one page the content detector judges, from the best source available: the browser's final DOM and observed
// behaviours when Chromium ran, otherwise the fetched HTML of the last hop with its inline scripts read statically.
import type { ScanEvidence } from '../../core/scan/evidence.ts';
import { parseTarget, type Target } from '../../core/url/target.ts';
import { type HtmlDocument, MAX_HTML_CHARS, readHtml } from './html-document.ts';
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
  browserVendorChallenge?: string;
}

function targetOf(url: string | undefined, fallback: Target): Target {
  if (!url || !/^https?:/i.test(url)) return fallback;
  try {
    return parseTarget(url);
  } catch {
    return fallback;
  }
}

export function pageViewOf(evidence: ScanEvidence): PageView | undefined {
  const headers = evidence.page.final?.headers ?? {};
  const browser = evidence.browser;
  if (!browser.degraded && browser.html) {
    const html = browser.html.slice(0, MAX_HTML_CHARS);
    const doc = readHtml(html);
    return {
      source: 'browser',
      page: targetOf(browser.final_url, evidence.target),
      html,
      doc,
      visibleText: (browser.visible_text ?? doc.visibleText).replace(/\s+/g, ' ').trim(),
      headers,
      behaviors: { ...browser.behaviors, source: 'browser' },
      browserVendorChallenge: browser.behaviors.vendor_challenge,
    };
  }
  const final = evidence.page.final;
  if (!final) return undefined;
  const html = final.body.slice(0, MAX_HTML_CHARS);
  const doc = readHtml(html);
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
  };
}
