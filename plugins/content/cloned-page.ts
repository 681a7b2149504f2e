// A copy of somebody else's page, served as one's own: what a browser's "Save page as" or a site copier leaves in
// the markup (the `<!-- saved from url=… -->` mark, a `Name_files/` asset folder, the HTTrack banner), and a page
// whose canonical URL, `og:url` or `<base>` names another site. Kits are made this way; a site serving its own
// sign-in page has no reason to carry another site's address as its own.
import { parseTarget, type Target } from '../../core/plugin-api.ts';
import type { PageView } from './page-view.ts';

export interface ClonedPage {
  /** `saved_from`, `saved_assets`, `site_copier`, `canonical_elsewhere`, `og_url_elsewhere`, `base_elsewhere`. */
  markers: string[];
  /** The other site the copy names, when it names one. */
  origin?: string;
}

/** Markup past this is not read for copy marks (they sit at the top, or in asset paths of the head). */
const READ_CHARS = 300_000;
const SAVED_FROM = /<!--\s*saved from url=\(\d{1,5}\)\s*([^\s>]{1,300})/i;
const SITE_COPIER = /<!--\s*Mirrored from [^>]{1,300}? by HTTrack|HTTrack Website Copier/i;
const SAVED_ASSETS = /\b(?:src|href)\s*=\s*(?:"[^"<>]{0,200}_files\/|'[^'<>]{0,200}_files\/|[^"'\s>]{0,200}_files\/)/i;
const LINK_TAG = /<link\b[^>]{0,600}>/gi;
const BASE_TAG = /<base\b[^>]{0,400}>/i;
const HREF = /\bhref\s*=\s*["']?([^"'\s>]{1,400})/i;

function otherSite(raw: string | undefined, page: Target): string | undefined {
  if (!raw || !/^https?:\/\//i.test(raw)) return undefined;
  try {
    const t = parseTarget(raw);
    return t.site === page.site || t.isIp ? undefined : t.site;
  } catch {
    return undefined;
  }
}

/** Per view: the kit signals and the brand detector both ask, and each reading is several passes over the page. */
const memo = new WeakMap<PageView, ClonedPage>();

export function clonedPage(view: PageView): ClonedPage {
  let found = memo.get(view);
  if (!found) {
    found = readClonedPage(view);
    memo.set(view, found);
  }
  return found;
}

function readClonedPage(view: PageView): ClonedPage {
  const html = view.html.slice(0, READ_CHARS);
  const markers: string[] = [];
  let origin: string | undefined;
  const saved = SAVED_FROM.exec(html);
  if (saved) {
    markers.push('saved_from');
    origin ??= otherSite(saved[1], view.page);
  }
  if (SAVED_ASSETS.test(html)) markers.push('saved_assets');
  if (SITE_COPIER.test(html)) markers.push('site_copier');
  let canonical: string | undefined;
  let count = 0;
  for (const m of html.matchAll(LINK_TAG)) {
    if (++count > 200) break;
    if (!/\brel\s*=\s*["']?canonical\b/i.test(m[0])) continue;
    canonical = otherSite(HREF.exec(m[0])?.[1], view.page);
    if (canonical) break;
  }
  if (canonical) {
    markers.push('canonical_elsewhere');
    origin ??= canonical;
  }
  const ogUrl = otherSite(view.doc.meta['og:url'], view.page);
  if (ogUrl) {
    markers.push('og_url_elsewhere');
    origin ??= ogUrl;
  }
  const base = BASE_TAG.exec(html);
  const baseSite = base ? otherSite(HREF.exec(base[0])?.[1], view.page) : undefined;
  if (baseSite) {
    markers.push('base_elsewhere');
    origin ??= baseSite;
  }
  return { markers, ...(origin ? { origin } : {}) };
}
