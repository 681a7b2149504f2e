// Foreign page identity, without a brand list: a sign-in page names itself (a title segment beside a sign-in
// segment, `og:site_name`, a "Sign in to X" heading, a logo's alt text or file name, a copyright holder, the domain
// its logo and links are loaded from) as a service X, and X is not the site it is served from. A service's own
// sign-in page names the service its domain names ("Sign in to Quillmere" on quillmere.com, "WSJ" on wsj.com);
// a copied sign-in page names the service it was copied from. Catalogued brands are page impersonation's job
// (page-impersonation.ts); this reads the long tail of services no list holds.
import {
  type BrandCatalog,
  brandOwning,
  type FormField,
  type HtmlDocument,
  parseTarget,
  type ScanEvidence,
  type Target,
} from '../../core/plugin-api.ts';
import { clonedPage } from '../content/cloned-page.ts';
import { credentialFunnel } from '../content/credential-fields.ts';
import { type PageView, pageViewOf } from '../content/page-view.ts';

export interface ForeignIdentity {
  /** The name the page gives itself, lower-cased words. */
  name: string;
  /**
   * Where the page names it: `title`, `site_name`, `heading`, `logo`, `copyright` (places a page names itself), and
   * the structural traces a copy keeps of its original: `asset_domain` (the host its logo is loaded from),
   * `link_domain` (the site most of its outbound links go to), `copy_origin` (the address a saved or copied page
   * names as its own), `field_name` (credential fields named after the service, `acme_user`/`acme_pass`).
   */
  cues: string[];
  title: string;
  credential_kinds: string[];
}

/** Sign-in pages are short; an article with a login modal names its own site and many other things. */
const SIGN_IN_PAGE_CHARS = 6_000;

/** Words around a name on a sign-in page; a candidate made only of these names nothing. */
const GENERIC = new Set(
  `sign log in on out up to into your my the a an of for and with account accounts id login logon signin signon
  online banking bank mail webmail email e secure security center centre portal welcome home page web app apps
  official verify verification authentication confirm dashboard member members area admin administrator panel
  user users client customer customers service services support help register registration create new password
  reset forgot recover recovery continue next submit index untitled document default site website private
  access error loading please wait redirecting com net org www http https html php free get started profile
  settings my start main menu search privacy terms cookie cookies policy legal all rights reserved inc ltd llc
  corp corporation gmbh company group team copyright by powered back again hello hi there now here`.split(/\s+/),
);

/**
 * Self-hosted products: their login pages are served, honestly, from their owners' own domains (an Outlook Web App
 * on mail.company.com, a phpMyAdmin, a cPanel). Naming one of them is not claiming a foreign identity.
 */
const SELF_HOSTED =
  /\b(?:outlook web app|outlook web access|owa|exchange server|sharepoint|roundcube|zimbra|horde|squirrelmail|rainloop|nextcloud|owncloud|wordpress|joomla|drupal|moodle|phpmyadmin|cpanel|whm|plesk|webmin|directadmin|ispconfig|gitlab|gitea|jenkins|grafana|kibana|jira|confluence|bitbucket|keycloak|okta|auth0|adfs|citrix|pulse secure|fortinet|fortigate|sonicwall|pfsense|opnsense|synology|qnap|unifi|router|modem|mikrotik|openvpn|phpbb|vbulletin|discourse|mediawiki|magento|prestashop|opencart|odoo|redmine|mattermost|rocket chat|zabbix|nagios|proxmox|vmware|esxi|vcenter|portainer|rancher|argo cd|sonarqube|artifactory|airflow|superset|metabase|tableau|splunk)\b/;

const TITLE_SEPARATORS = /\s[|\-–—·•:»«/]\s|[|·•»«]|:\s/;
const SIGN_IN =
  /\b(?:sign ?in|log ?in|login|logon|sign on|anmelden|einloggen|connexion|se connecter|iniciar sesi[oó]n|entrar|acceder|accedi|inloggen|aanmelden)\b|войти|вход|登录|登入|ログイン/i;
/** "Sign in to X", "Log in to your X account", "Welcome to X", "X login", "Login to X". */
const HEADING_NAME =
  /^(?:(?:sign|log) ?in|login|logon|welcome)(?: (?:to|into|at|back to))?(?: your)? (.{2,40}?)(?: account)?[.!]?$|^(.{2,40}?) (?:sign ?in|log ?in|login|account login)$/i;
const COPYRIGHT = /(?:©|&copy;|\(c\)|copyright)\s?(?:\d{4}(?:\s?[-–]\s?\d{4})?)?[,\s]*([^.|\n©]{2,50})/gi;

function words(text: string): string[] {
  return text
    .slice(0, 300)
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The name once wrapper words, years and hash-like tokens are set aside, or undefined when nothing is left. */
function coreName(text: string): string[] | undefined {
  const core = words(text).filter((w) => !GENERIC.has(w) && !/^\d+$/.test(w) && !/^[a-f0-9]{8,}$/.test(w));
  if (core.length === 0 || core.length > 4) return undefined;
  const glued = core.join('');
  if (glued.length < 2 || !/\p{L}/u.test(glued)) return undefined;
  return core;
}

function fileCore(src: string): string[] | undefined {
  if (src.startsWith('data:')) return undefined;
  const file = (src.split(/[?#]/)[0] ?? '').split('/').pop() ?? '';
  const stem = file
    .replace(/\.[a-z0-9]{2,5}$/i, '')
    .replace(/[_\-.]+/g, ' ')
    .replace(/logo(?:type)?s?|\bicon\b|\bwhite\b|\bblack\b|\bdark\b|\blight\b|\bsmall\b|\blarge\b|\bheader\b/gi, ' ');
  return coreName(stem);
}

interface Cue {
  kind: string;
  name: string[];
}

function registrableLabel(url: string, base: Target): string | undefined {
  try {
    const t = parseTarget(new URL(url, base.url).href);
    if (t.isIp || t.site === base.site) return undefined;
    return (t.registrableDomain ?? t.site).split('.')[0];
  } catch {
    return undefined;
  }
}

/** Cues that are traces of another site (by construction not this one) rather than names the page gives itself. */
const TRACE_KINDS: ReadonlySet<string> = new Set(['asset_domain', 'link_domain', 'copy_origin']);
/** A credential field named after its service: `acme_user`, `acme-pass`, `acmePassword`. */
const FIELD_NAME = /^([a-z]{3,20})[_-]?(?:user(?:name)?|login|email|mail|pass(?:word)?|pwd|pin)$/i;
/** Off-site links that must agree before the linked site counts as the page's origin. */
const MIN_LINKS = 2;

function linkDomain(doc: HtmlDocument, page: Target): string | undefined {
  const counts = new Map<string, number>();
  let offsite = 0;
  for (const link of doc.links.slice(0, 300)) {
    if (!/^https?:/i.test(link.href)) continue;
    const label = registrableLabel(link.href, page);
    if (!label) continue;
    offsite++;
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  const [top, n] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  return n >= MIN_LINKS && n * 2 >= offsite ? top : undefined;
}

function fieldNames(fields: readonly FormField[]): string[] {
  const out = new Set<string>();
  for (const f of fields.slice(0, 50)) {
    for (const raw of [f.attrs.name, f.attrs.id]) {
      const m = raw ? FIELD_NAME.exec(raw) : null;
      if (m && !GENERIC.has(m[1]!.toLowerCase())) out.add(m[1]!.toLowerCase());
    }
  }
  return [...out];
}

function traceCues(view: PageView): Cue[] {
  const { doc, page } = view;
  const cues: Cue[] = [];
  const links = linkDomain(doc, page);
  if (links) cues.push({ kind: 'link_domain', name: links.split('-') });
  const origin = clonedPage(view).origin;
  if (origin) cues.push({ kind: 'copy_origin', name: origin.split('.')[0]!.split('-') });
  for (const name of fieldNames([...doc.forms.flatMap((f) => f.fields), ...doc.looseFields]))
    cues.push({ kind: 'field_name', name: [name] });
  return cues;
}

function cuesOf(doc: HtmlDocument, visibleText: string, page: Target): Cue[] {
  const cues: Cue[] = [];
  const title = (doc.title || doc.meta['og:title'] || '').slice(0, 200);
  const segments = title.split(TITLE_SEPARATORS).map((s) => s.trim());
  // A title segment names the service when the title is a sign-in title ("Acme - Login") or is the name alone.
  const signInTitle = SIGN_IN.test(title);
  for (const seg of segments) {
    const m = HEADING_NAME.exec(seg);
    const name = coreName(m ? (m[1] ?? m[2] ?? '') : seg);
    if (name && (signInTitle || segments.length === 1)) cues.push({ kind: 'title', name });
  }
  for (const key of ['og:site_name', 'application-name', 'apple-mobile-web-app-title']) {
    const name = doc.meta[key] ? coreName(doc.meta[key]!) : undefined;
    if (name) cues.push({ kind: 'site_name', name });
  }
  for (const h of doc.headings.slice(0, 10)) {
    const text = h.replace(/\s+/g, ' ').trim();
    const m = HEADING_NAME.exec(text);
    // "Sign in to X", or a heading that is a bare name of one or two words ("LinkedIn" above the form).
    const bare = coreName(text);
    const name = m
      ? coreName(m[1] ?? m[2] ?? '')
      : bare && bare.length <= 2 && bare.length === words(text).length
        ? bare
        : undefined;
    if (name) cues.push({ kind: 'heading', name });
  }
  for (const img of doc.images.slice(0, 40)) {
    const isLogo = /logo/i.test(`${img.alt} ${img.src}`);
    if (!isLogo) continue;
    const alt = coreName(img.alt.replace(/\blogo\b/gi, ' '));
    if (alt) cues.push({ kind: 'logo', name: alt });
    const file = fileCore(img.src);
    if (file) cues.push({ kind: 'logo', name: file });
    // A logo loaded from another site names that site: a copied page keeps its original's image URLs.
    const label = /^https?:/i.test(img.src) ? registrableLabel(img.src, page) : undefined;
    if (label) cues.push({ kind: 'asset_domain', name: label.split('-') });
  }
  for (const m of visibleText.slice(0, 20_000).matchAll(COPYRIGHT)) {
    const name = coreName(m[1]!.replace(/\ball rights reserved\b.*/i, ''));
    if (name) cues.push({ kind: 'copyright', name });
    if (cues.length > 100) break;
  }
  return cues;
}

/** The candidate is the site's own name: a host label holds it (glued), or it spells the host label's initials. */
function namesSite(name: readonly string[], page: Target): boolean {
  const glued = name.join('');
  const hostWords = page.host
    .replace(/^www\./, '')
    .split('.')
    .slice(0, -1)
    .join(' ');
  const hostGlued = hostWords.replace(/[^\p{L}\p{N}]+/gu, '');
  if (hostGlued.includes(glued) || (glued.length >= 5 && glued.includes(hostGlued) && hostGlued.length >= 3))
    return true;
  const initials = name.map((w) => w[0]).join('');
  if (name.length >= 2 && hostWords.split(/[\s-]+/).some((l) => l === initials)) return true;
  // A name sharing a long stem with the host ("Barron's" / barrons, "Hollywood Reporter" / hollywoodreporter).
  return name.some((w) => w.length >= 5 && hostGlued.includes(w));
}

/** Candidates the same across cues: glued words, so "Crypto Coin Sniper" meets cryptocoinsniper.co. */
function sameName(a: readonly string[], b: readonly string[]): boolean {
  const x = a.join('');
  const y = b.join('');
  return x === y || (x.length >= 4 && y.length >= 4 && (x.startsWith(y) || y.startsWith(x)));
}

export function foreignPageIdentity(evidence: ScanEvidence, catalog: BrandCatalog): ForeignIdentity | undefined {
  const view = pageViewOf(evidence);
  return view ? foreignIdentityOf(view, catalog) : undefined;
}

/** Foreign identity on one page view: the scanned page, or the page its call to action leads to. */
export function foreignIdentityOf(view: PageView, catalog: BrandCatalog): ForeignIdentity | undefined {
  const { doc, page } = view;
  if (page.isIp || brandOwning(page, catalog)) return undefined;
  if (view.visibleText.length > SIGN_IN_PAGE_CHARS) return undefined;
  const funnel = credentialFunnel(doc);
  if (!funnel.harvestsSecrets) return undefined;
  const cues = [...cuesOf(doc, view.visibleText, page), ...traceCues(view)];
  // Any cue naming the site itself means the page is the site's own (a tenant naming its own project included).
  if (cues.some((c) => !TRACE_KINDS.has(c.kind) && namesSite(c.name, page))) return undefined;
  let best: ForeignIdentity | undefined;
  for (const c of cues) {
    const name = c.name.join(' ');
    if (SELF_HOSTED.test(name)) continue;
    const kinds = new Set(cues.filter((o) => sameName(o.name, c.name)).map((o) => o.kind));
    // Two kinds of place agree, or the page names itself where only a name goes: its site name, a sign-in title, or
    // a title that is the name alone ("Gmail", "Proton Account").
    const soleTitle = !TITLE_SEPARATORS.test(doc.title) && coreName(doc.title)?.join('') === c.name.join('');
    const sure =
      kinds.size >= 2 || kinds.has('site_name') || (kinds.has('title') && (SIGN_IN.test(doc.title) || soleTitle));
    if (!sure) continue;
    if (!best || kinds.size > best.cues.length) {
      best = { name, cues: [...kinds].sort(), title: doc.title.slice(0, 120), credential_kinds: funnel.kinds };
    }
  }
  return best;
}
