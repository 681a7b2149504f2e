// The one page a scanned page hands its visitor to next. Credential funnels are often two pages: a landing page
// (a poll, a profile, a "your document is ready" notice) that asks for nothing, and one click further the page that
// asks for the password. The scan reads that second page only when the first asks for no secret itself and shows a
// call to action a visitor is meant to take; this module picks it, statically, from the page's markup. Which page
// is fetched, and how, is one-hop-follow.ts. Designed after issue 10's held-out kit misses (first-stage pages); the
// rules are generic (page structure and common call-to-action wording), nothing is taken from any kit.

import type { FormField, HtmlDocument, HtmlForm } from '../../engine/text/html-document.ts';
import { findJsRedirect, findMetaRefresh } from '../../evidence/sources/page-redirects.ts';

/** How the page leads on: an unfollowed redirect, a sign-in or continue link, a GET form, or its only link. */
export type FollowVia = 'meta_refresh' | 'script_redirect' | 'action_link' | 'form_get' | 'sole_link';

export interface FollowPlan {
  /** Absolute http(s) URL without fragment. */
  url: string;
  via: FollowVia;
  /** The link or button text, the form's submit text, or the redirect expression (≤ 120 characters). */
  label: string;
}

/**
 * Fields that take a secret, read structurally (type, autocomplete, the usual field names). The detectors read
 * fields more finely (labels in many languages); this only decides whether the page is already the funnel's end.
 */
const SECRET_AUTOCOMPLETE = /password|cc-(?:number|csc|exp)|one-time-code/;
const SECRET_NAME =
  /(?:^|[^a-z])(?:pass(?:word|wd|code)?|pwd|pin|otp|cvv2?|cvc2?|csc|card ?(?:number|num|no))(?:$|[^a-z])/;

function nameWords(field: FormField): string {
  return `${field.attrs.name ?? ''} ${field.attrs.id ?? ''}`
    .slice(0, 256)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[_\-.]+/g, ' ');
}

export function asksForSecret(doc: HtmlDocument): boolean {
  const fields = [...doc.looseFields, ...doc.forms.flatMap((f) => f.fields)];
  return fields.some(
    (f) =>
      f.type === 'password' ||
      SECRET_AUTOCOMPLETE.test((f.attrs.autocomplete ?? '').toLowerCase()) ||
      (f.type !== 'hidden' && SECRET_NAME.test(nameWords(f))),
  );
}

/**
 * Call-to-action wording, strongest first: sign in; verify or claim; continue. Matched against a link's whole
 * (short) text, in the languages kits are written in. "Sign up" and "Register" are not calls to hand over a secret.
 */
const ACTION_TIERS: readonly RegExp[] = [
  /\b(?:sign|log) ?(?:in|on)\b|\blogin\b|\blogon\b|\banmelden\b|\beinloggen\b|\bconnexion\b|\bse connecter\b|\biniciar sesi[oó]n\b|\bacceder\b|\bentrar\b|\baccedi\b|\binloggen\b|\baanmelden\b|войти|вход|登录|登入|登錄|ログイン|サインイン/,
  /\bverify\b|\bconfirm\b|\bunlock\b|\bvalidate\b|\bauthenticate\b|\breactivate\b|\brestore\b|\bclaim\b|\bbest[aä]tigen\b|\bverifizieren\b|\bv[eé]rifier\b|\bconfirmer\b|\bverificar\b|\bconfirmar\b|\bverifica\b|\bconferma\b|\bbevestigen\b|\bverifi[eë]ren\b|подтверд|провер|验证|确认|確認|認証/,
  /\bcontinue\b|\bnext\b|\bproceed\b|\bget started\b|\bweiter\b|\bfortfahren\b|\bcontinuer\b|\bsuivant\b|\bcontinuar\b|\bsiguiente\b|\bavan[cç]ar\b|\bcontinua\b|\bavanti\b|\bdoorgaan\b|\bvolgende\b|продолж|далее|继续|下一步|続ける|次へ/,
];
const MAX_ACTION_TEXT = 40;

/** Targets that are not pages: a download or a media file is not where a visitor types a password. */
const NOT_A_PAGE =
  /\.(?:pdf|zip|rar|7z|gz|tgz|bz2|xz|tar|exe|msi|dmg|pkg|apk|ipa|deb|rpm|iso|img|bin|jar|doc|docx|xls|xlsx|ppt|pptx|odt|csv|json|xml|txt|js|mjs|css|map|png|jpe?g|gif|webp|svg|ico|bmp|tiff?|avif|mp[34]|m4[av]|webm|ogg|wav|flac|avi|mov|mkv|woff2?|ttf|otf|eot)$/i;

/** A site search: a search-typed or search-named box, a search endpoint, or a "Search" button. */
const SEARCH_FIELD = /^(?:q|s|query|search|keywords?|k|term|terms|searchterm|search_query)$/i;
const SEARCH_WORDS = /\bsearch\b|\bsuche\b|\brecherche\b|\bbuscar?\b|\bcerca\b|\bzoeken\b|поиск|найти|搜索|検索/i;

const TYPED_EXCLUDED = new Set(['hidden', 'submit', 'button', 'image', 'reset']);

function isSearchForm(form: HtmlForm): boolean {
  const typed = form.fields.filter((f) => !TYPED_EXCLUDED.has(f.type));
  if (typed.some((f) => f.type === 'search' || SEARCH_FIELD.test(f.attrs.name ?? ''))) return true;
  const path = form.action.split(/[?#]/)[0] ?? '';
  return SEARCH_WORDS.test(path.replace(/[_\-/.]+/g, ' ')) || SEARCH_WORDS.test(form.submitText);
}

/** The URL without its fragment (two URLs that differ only there are one page), or undefined if it does not parse. */
export function withoutHash(url: string): string | undefined {
  try {
    const u = new URL(url);
    u.hash = '';
    return u.href;
  } catch {
    return undefined;
  }
}

/**
 * The candidate as an absolute page URL the follow may fetch, or undefined: http(s) only, no credentials in the
 * URL, the default port (or the page's own origin), not the page itself or a page already on its redirect chain,
 * not a file type that is no page.
 */
function followable(href: string, page: URL, visited: ReadonlySet<string>): string | undefined {
  const raw = href.trim();
  if (!raw || raw.startsWith('#') || raw.length > 2048) return undefined;
  let url: URL;
  try {
    url = new URL(raw, page);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password) return undefined;
  // The URL parser drops a scheme's default port, so a non-empty port is a non-default one.
  if (url.port !== '' && url.origin !== page.origin) return undefined;
  url.hash = '';
  if (visited.has(url.href)) return undefined;
  if (NOT_A_PAGE.test(url.pathname)) return undefined;
  return url.href;
}

function clip(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 120);
}

/** The most linked target among links of the strongest call-to-action tier present (ties: document order). */
function actionLink(
  doc: HtmlDocument,
  page: URL,
  visited: ReadonlySet<string>,
  tiers: readonly RegExp[],
): FollowPlan | undefined {
  for (const tier of tiers) {
    const counts = new Map<string, { n: number; label: string }>();
    for (const link of doc.links) {
      const text = link.text.toLowerCase();
      if (!text || text.length > MAX_ACTION_TEXT || !tier.test(text)) continue;
      const url = followable(link.href, page, visited);
      if (!url) continue;
      const seen = counts.get(url);
      counts.set(url, { n: (seen?.n ?? 0) + 1, label: seen?.label ?? link.text });
    }
    let best: [string, { n: number; label: string }] | undefined;
    for (const entry of counts) if (!best || entry[1].n > best[1].n) best = entry;
    if (best) return { url: best[0], via: 'action_link', label: clip(best[1].label) };
  }
  return undefined;
}

function formGet(doc: HtmlDocument, page: URL, visited: ReadonlySet<string>): FollowPlan | undefined {
  for (const form of doc.forms) {
    if (form.method !== 'get' || !form.action.trim() || isSearchForm(form)) continue;
    const url = followable(form.action, page, visited);
    if (url) return { url, via: 'form_get', label: clip(form.submitText) };
  }
  return undefined;
}

/** The page's only destination: every link and navigating button goes to one page. */
function soleLink(doc: HtmlDocument, page: URL, visited: ReadonlySet<string>): FollowPlan | undefined {
  const targets = new Map<string, string>();
  for (const link of doc.links) {
    const url = followable(link.href, page, visited);
    if (url && !targets.has(url)) targets.set(url, link.text);
    if (targets.size > 1) return undefined;
  }
  const [only] = targets;
  return only ? { url: only[0], via: 'sole_link', label: clip(only[1]) } : undefined;
}

/**
 * The page's call to action, strongest first: a meta refresh the capture did not wait for, a sign-in link, a GET
 * form, a verify/claim or continue link, a script redirect that did not run (often conditional: frame busting,
 * browser checks), then the page's only link. Undefined
 * when the page asks for a secret itself (it is the funnel's end) or leads nowhere a visitor is steered.
 * `visited`: URLs (no fragment) already fetched for this scan.
 */
export function planFollow(
  doc: HtmlDocument,
  html: string,
  pageUrl: string,
  visited: ReadonlySet<string>,
): FollowPlan | undefined {
  return asksForSecret(doc) ? undefined : planFromPage(doc, html, pageUrl, visited);
}

/** `planFollow` for a page already known to ask for no secret. */
export function planFromPage(
  doc: HtmlDocument,
  html: string,
  pageUrl: string,
  alreadyRead: ReadonlySet<string>,
): FollowPlan | undefined {
  let page: URL;
  try {
    page = new URL(pageUrl);
  } catch {
    return undefined;
  }
  const visited = new Set(alreadyRead);
  visited.add(withoutHash(page.href)!);
  const meta = findMetaRefresh(html, page.href);
  const metaUrl = meta && followable(meta.to, page, visited);
  if (metaUrl) return { url: metaUrl, via: 'meta_refresh', label: `refresh after ${meta.delaySeconds} s` };
  const fromScript = (): FollowPlan | undefined => {
    const js = findJsRedirect(html, page.href);
    const url = js && !js.partial ? followable(js.to, page, visited) : undefined;
    return url ? { url, via: 'script_redirect', label: clip(js!.expression) } : undefined;
  };
  return (
    actionLink(doc, page, visited, ACTION_TIERS.slice(0, 1)) ??
    formGet(doc, page, visited) ??
    actionLink(doc, page, visited, ACTION_TIERS.slice(1)) ??
    fromScript() ??
    soleLink(doc, page, visited)
  );
}
