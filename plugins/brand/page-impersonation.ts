// Page identity: which brand a scanned page presents itself as, read from where pages name themselves — the title
// and its segments, `og:site_name` / `application-name`, headings ("Sign in to Acme"), logo images (alt text and
// file names), the favicon's file name, copyright lines and the sign-in wording of buttons and labels — and set
// against the host the page is served from. A brand's sign-in (a password, one-time code, card or seed-phrase
// field, or an identity form posting to a sign-in endpoint) on a site that brand does not own is impersonation.
//
// Brands come from rules/brands.json (their display names and owned domains) plus page-identities.json (the other
// names a brand's pages use — "iCloud", "Office 365" — and commonly imitated brands that need no URL matching).
import type { BrandCatalog, BrandEntry, HtmlDocument, ScanEvidence, Target } from '../../core/plugin-api.ts';
import { brandOwning } from '../../core/plugin-api.ts';
import { credentialFunnel } from '../content/credential-fields.ts';
import { type PageView, pageViewOf } from '../content/page-view.ts';
import identities from './page-identities.json' with { type: 'json' };

export interface PageImpersonation {
  brand: string;
  brand_name: string;
  title: string;
  /** Where the page names the brand: `title`, `site_name`, `heading`, `logo`, `favicon`, `copyright`, `sign_in_text`. */
  cues: string[];
  /** What the page asks for (`password`, `one_time_code`, `card_number`, `seed_phrase`, `identity`…). */
  credential_kinds: string[];
}

interface PageBrand {
  id: string;
  name: string;
  /** Names as word sequences (Latin) or as literal strings (scripts without spaces, e.g. Cyrillic or CJK). */
  names: string[][];
  domains: string[];
  everyday: boolean;
}

interface IdentityEntry {
  id: string;
  name: string;
  names: string[];
  domains: string[];
  everyday?: boolean;
}

/** Catalogued brands whose names are everyday words: a page must name them in a strong place. */
const EVERYDAY_IDS: ReadonlySet<string> = new Set(['apple', 'chase', 'slack', 'adobe', 'steam', 'ups']);

function words(text: string, max = 2_000): string[] {
  return text
    .slice(0, max)
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}+&]+/u)
    .filter(Boolean);
}

function containsRun(haystack: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0) return false;
  for (let i = 0; i + needle.length <= haystack.length; i++) {
    if (needle.every((w, j) => haystack[i + j] === w)) return true;
  }
  return false;
}

let cachedFor: BrandCatalog | undefined;
let cachedBrands: PageBrand[] = [];

/** rules/brands.json merged with page-identities.json (names and domains added to a catalogued brand of that id). */
function pageBrands(catalog: BrandCatalog): PageBrand[] {
  if (cachedFor === catalog) return cachedBrands;
  const byId = new Map<string, PageBrand>();
  const add = (id: string, name: string, names: string[], domains: string[], everyday: boolean) => {
    const entry = byId.get(id) ?? { id, name, names: [], domains: [], everyday };
    for (const n of [name, ...names]) {
      const w = words(n);
      if (w.length > 0 && !entry.names.some((x) => x.join(' ') === w.join(' '))) entry.names.push(w);
    }
    for (const d of domains) if (!entry.domains.includes(d)) entry.domains.push(d);
    byId.set(id, entry);
  };
  for (const b of catalog.brands as readonly BrandEntry[]) add(b.id, b.name, [], b.domains, EVERYDAY_IDS.has(b.id));
  for (const e of (identities as { brands: IdentityEntry[] }).brands) {
    add(e.id, e.name, e.names, e.domains, Boolean(e.everyday) || EVERYDAY_IDS.has(e.id));
  }
  cachedFor = catalog;
  cachedBrands = [...byId.values()];
  return cachedBrands;
}

function ownsHost(brand: PageBrand, host: string): boolean {
  return brand.domains.some((d) => host === d || host.endsWith(`.${d}`));
}

/** "Sign in with Google", "Continue with Apple", "Log in with Facebook": offering the brand's login, not posing as it. */
function offersBrandLogin(text: string[], name: readonly string[]): boolean {
  for (const lead of [['with'], ['via'], ['using'], ['mit'], ['avec'], ['con'], ['com'], ['через']]) {
    if (containsRun(text, [...lead, ...name])) return true;
  }
  return false;
}

const TITLE_SEPARATORS = /\s[|\-–—·•:»«/]\s|[|·•»«]|:\s/;
const SIGN_IN_WORDS =
  /\b(?:sign ?in|log ?in|login|logon|sign on|account|password|verify|verification|anmelden|einloggen|connexion|se connecter|iniciar sesi[oó]n|entrar|acceder|accedi|inloggen|aanmelden)\b|войти|вход|登录|登入|ログイン|サインイン/i;
const COPYRIGHT = /(?:©|&copy;|\(c\)|copyright)\s?(?:\d{4}(?:\s?[-–]\s?\d{4})?)?\s?([^.|\n]{2,60})/gi;

interface Cue {
  kind: string;
  words: string[];
  /** Strong cues may name an everyday-word brand; weak ones only a distinctive name. */
  strong: boolean;
  /** A cue that *is* the name (a title segment, a site name) rather than merely containing it. */
  exact: boolean;
}

function fileWords(src: string): string[] {
  const file = src.split(/[?#]/)[0]!.split('/').pop() ?? '';
  return words(file.replace(/\.[a-z0-9]{2,5}$/i, '').replace(/[_\-.]+/g, ' '));
}

function cuesOf(doc: HtmlDocument, visibleText: string): Cue[] {
  const cues: Cue[] = [];
  const title = doc.title || doc.meta['og:title'] || '';
  if (title) {
    cues.push({ kind: 'title', words: words(title), strong: false, exact: false });
    for (const seg of title.split(TITLE_SEPARATORS)) {
      const w = words(seg);
      if (w.length > 0 && w.length <= 8) cues.push({ kind: 'title', words: w, strong: true, exact: true });
    }
  }
  for (const key of ['og:site_name', 'application-name', 'apple-mobile-web-app-title']) {
    const v = doc.meta[key];
    if (v) cues.push({ kind: 'site_name', words: words(v), strong: true, exact: true });
  }
  for (const h of doc.headings.slice(0, 10)) {
    cues.push({ kind: 'heading', words: words(h, 300), strong: SIGN_IN_WORDS.test(h), exact: false });
  }
  for (const img of doc.images.slice(0, 40)) {
    const alt = words(img.alt, 200);
    const file = fileWords(img.src);
    const logo = /\blogo\b|\bbrand\b|\bheader\b/i.test(`${img.alt} ${img.src}`);
    if (alt.length > 0 && alt.length <= 6) cues.push({ kind: 'logo', words: alt, strong: logo, exact: false });
    if (file.length > 0 && !img.src.startsWith('data:'))
      cues.push({ kind: 'logo', words: file, strong: logo, exact: false });
  }
  for (const icon of doc.icons.slice(0, 5)) {
    const file = fileWords(icon);
    if (file.length > 0 && !icon.startsWith('data:'))
      cues.push({ kind: 'favicon', words: file, strong: false, exact: false });
  }
  for (const m of visibleText.slice(0, 100_000).matchAll(COPYRIGHT)) {
    cues.push({ kind: 'copyright', words: words(m[1]!, 80), strong: true, exact: false });
    if (cues.length > 200) break;
  }
  const signIn = [...doc.buttons.slice(0, 30), ...doc.forms.flatMap((f) => f.fields.map((x) => x.label))]
    .concat(
      visibleText
        .slice(0, 3_000)
        .split(/(?<=[.!?])\s/)
        .slice(0, 40),
    )
    .filter((t) => t && t.length <= 160 && SIGN_IN_WORDS.test(t));
  for (const t of signIn.slice(0, 60))
    cues.push({ kind: 'sign_in_text', words: words(t, 200), strong: true, exact: false });
  return cues;
}

/** A title or site name naming the site itself ("Quillmere Studio" on quillmere-studio.com). */
function namesOwnSite(cues: readonly Cue[], target: Target): boolean {
  const label = words((target.site.split('.')[0] ?? '').replace(/-/g, ' '));
  const glued = label.join('');
  return cues.some(
    (c) =>
      (c.kind === 'site_name' || (c.kind === 'title' && c.exact) || c.kind === 'copyright') &&
      (containsRun(c.words, label) || (glued.length >= 4 && c.words.join('') === glued)),
  );
}

/** Words a sign-in page wraps its brand name in: "Sign in to your Acme account", "Acme ID", "Acme Online Banking". */
const WRAPPER_WORDS: ReadonlySet<string> = new Set(
  'sign log in on to into your my the account accounts id login logon signin online banking bank mail webmail secure security center centre portal welcome home page web app official verify verification authentication confirm com net org'.split(
    ' ',
  ),
);

/**
 * A title segment or site name that is the brand once sign-in words are set aside: "Sign in to your Microsoft
 * account", "Adobe ID". A distinctive name may also lead a product name of up to two more words ("Coinbase Pro
 * Login", "PayPal Business"); an everyday-word name must stand alone ("Chase your goals" is not Chase).
 */
function isTheName(cue: readonly string[], name: readonly string[], everyday: boolean): boolean {
  const core = cue.filter((w) => !WRAPPER_WORDS.has(w) || name.includes(w));
  if (core.length === 0) return false;
  if (core.join(' ') === name.join(' ')) return true;
  return !everyday && core.length <= name.length + 2 && name.every((w, i) => core[i] === w);
}

function matchBrand(brand: PageBrand, cues: readonly Cue[]): string[] {
  const kinds = new Set<string>();
  for (const c of cues) {
    for (const name of brand.names) {
      if (c.exact) {
        if (isTheName(c.words, name, brand.everyday) && !offersBrandLogin(c.words, name))
          kinds.add(c.kind === 'title' ? 'title_name' : c.kind);
        continue;
      }
      if (!containsRun(c.words, name)) continue;
      if (c.kind === 'sign_in_text' && offersBrandLogin(c.words, name)) continue;
      if (brand.everyday && !c.strong && !c.exact) continue;
      kinds.add(c.kind);
    }
  }
  return [...kinds];
}

/** How surely the cues name the brand: two kinds of place, or one place where the page names itself. */
function presents(kinds: readonly string[]): boolean {
  if (kinds.length >= 2) return true;
  return kinds.some((k) => k === 'site_name' || k === 'copyright' || k === 'title_name');
}

export function pageImpersonation(evidence: ScanEvidence, catalog: BrandCatalog): PageImpersonation[] {
  const view = pageViewOf(evidence);
  return view ? pageImpersonationOf(view, catalog) : [];
}

/** Page impersonation on one page view: the scanned page, or the page its call to action leads to. */
export function pageImpersonationOf(view: PageView, catalog: BrandCatalog): PageImpersonation[] {
  const { doc, page } = view;
  if (brandOwning(page, catalog)) return [];
  const funnel = credentialFunnel(doc);
  const asksSecret = funnel.harvestsSecrets || funnel.credential_forms.length > 0;
  if (!asksSecret) return [];
  const cues = cuesOf(doc, view.visibleText);
  if (namesOwnSite(cues, page)) return [];
  const out: PageImpersonation[] = [];
  for (const brand of pageBrands(catalog)) {
    if (ownsHost(brand, page.host)) continue;
    const kinds = matchBrand(brand, cues);
    if (!presents(kinds)) continue;
    out.push({
      brand: brand.id,
      brand_name: brand.name,
      title: doc.title,
      cues: kinds,
      credential_kinds: funnel.kinds,
    });
  }
  // A page presents one identity: when several brands match (a "Sign in with…" list), keep the best supported.
  out.sort((a, b) => b.cues.length - a.cues.length);
  return out.slice(0, out.length > 1 && out[0]!.cues.length > out[1]!.cues.length ? 1 : 3);
}
