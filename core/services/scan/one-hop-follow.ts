// The scan's one-hop follow: when the scanned page asks for no secret itself but steers its visitor somewhere (see
// call-to-action.ts), that one page is fetched too, so the detectors can read a credential funnel one click away.
//
// What an attacker could try, and why it does not work:
// - loops and chains: one follow per scan, never from the followed page; the target may not be the page itself or
//   any URL of its redirect chain, and a followed chain ending there again is discarded;
// - amplification: one extra page (at most FOLLOW_MAX_REQUESTS requests with its own redirects), no favicon, the
//   fetcher's cache, under the scan's signal and the fetcher's own time budget;
// - huge or binary files: file-like paths are never chosen, a response declaring a non-HTML type is dropped unread,
//   and an HTML body is read to the fetcher's size cap like every page;
// - internal addresses: the same guarded fetcher as the page itself (SSRF guard at connect time, every redirect,
//   every resolved address; the lab's connect-to mapping is the only way to loopback), plus no credentials in the
//   URL and no port other than the scheme's default or the page's own origin.

import { MAX_HTML_CHARS, readHtml } from '../../engine/text/html-document.ts';
import type { BrowserCapture } from '../../evidence/browser/browser-capture.ts';
import type { FetchResult, HttpFetcher } from '../../evidence/sources/http-fetcher.ts';
import type { CallOptions } from '../../evidence/sources/lookup.ts';
import { asksForSecret, type FollowPlan, planFromPage, withoutHash } from './call-to-action.ts';

/** Requests the followed page may take, its own redirects included. */
export const FOLLOW_MAX_REQUESTS = 3;

export type FollowStatus =
  /** The call to action was fetched and ended on an HTML page (`page`). */
  | 'followed'
  /** The scanned page asks for a secret itself: it is the funnel's end. */
  | 'page_asks_for_secret'
  | 'no_call_to_action'
  /** Nothing was read from the scanned page. */
  | 'no_page'
  /** The fetch failed, answered with an error status, was not HTML, or came back to a page already read. */
  | 'failed';

export interface FollowEvidence {
  status: FollowStatus;
  /** The page the call to action was read from (the browser's final page when it ran, else the fetch's). */
  from_url?: string;
  plan?: FollowPlan & {
    /** The followed page is on the scanned page's own host (`www.` aside): a next step of the same site. */
    same_host: boolean;
  };
  /** Why a follow failed, in words. */
  reason?: string;
  /** The followed chain: hops, final page (set whenever a request was made). */
  page?: FetchResult;
}

function bareHost(url: string): string {
  return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
}

/** The page the scan ended on: the browser's DOM when it ran, else the fetched body of the last hop. */
function scannedPage(page: FetchResult, browser: BrowserCapture): { url: string; html: string } | undefined {
  if (!browser.degraded && browser.html && /^https?:/.test(browser.final_url)) {
    return { url: browser.final_url, html: browser.html };
  }
  const final = page.final;
  if (!final || final.status >= 400 || !final.body) return undefined;
  return { url: final.url, html: final.body };
}

/** Plans and, when the page steers somewhere, fetches the one page one click away. Never throws. */
export async function followOneHop(
  http: HttpFetcher,
  source: { page: FetchResult; browser: BrowserCapture },
  options: CallOptions,
): Promise<FollowEvidence> {
  const scanned = scannedPage(source.page, source.browser);
  if (!scanned) return { status: 'no_page' };
  const visited = new Set<string>();
  for (const url of [
    source.page.requested_url,
    ...source.page.hops.map((h) => h.url),
    ...source.browser.hops.map((h) => h.url),
    scanned.url,
  ]) {
    const bare = withoutHash(url);
    if (bare) visited.add(bare);
  }
  const html = scanned.html.slice(0, MAX_HTML_CHARS);
  const doc = readHtml(html);
  const from_url = scanned.url;
  if (asksForSecret(doc)) return { status: 'page_asks_for_secret', from_url };
  const plan = planFromPage(doc, html, scanned.url, visited);
  if (!plan) return { status: 'no_call_to_action', from_url };
  const planned = { ...plan, same_host: bareHost(plan.url) === bareHost(scanned.url) };
  let page: FetchResult;
  try {
    page = await http.fetchPage(plan.url, {
      ...options,
      favicon: false,
      maxHops: FOLLOW_MAX_REQUESTS,
      htmlOnly: true,
    });
  } catch (err) {
    return { status: 'failed', from_url, plan: planned, reason: err instanceof Error ? err.message : String(err) };
  }
  const failed = (reason: string): FollowEvidence => ({ status: 'failed', from_url, plan: planned, reason, page });
  const final = page.final;
  if (!final) return failed(page.error ? `${page.error.reason}: ${page.error.detail ?? ''}`.trim() : 'no response');
  if (page.stopped !== 'final') return failed(`the followed chain stopped (${page.stopped})`);
  const finalUrl = withoutHash(final.url);
  if (finalUrl && visited.has(finalUrl)) return failed('the call to action leads back to a page already read');
  if (final.status >= 400) return failed(`HTTP ${final.status}`);
  if (!final.body) return failed(`not an HTML page (${final.headers['content-type'] ?? 'empty body'})`);
  return {
    status: 'followed',
    from_url,
    plan: { ...planned, same_host: bareHost(final.url) === bareHost(scanned.url) },
    page,
  };
}
