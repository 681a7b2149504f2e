// Foreign page identity, without a brand list: a sign-in page names itself (a title segment beside a sign-in
// segment, `og:site_name`, a "Sign in to X" heading, a logo's alt text or file name, a copyright holder, the domain
// its logo and links are loaded from) as a service X, and X is not the site it is served from. A service's own
// sign-in page names the service its domain names ("Sign in to Quillmere" on quillmere.com, "WSJ" on wsj.com);
// a copied sign-in page names the service it was copied from. Catalogued brands are page impersonation's job
// (page-impersonation.ts); this reads the long tail of services no list holds.
import type { ScanEvidence } from '../../core/scan/evidence.ts';
import { brandOwning } from '../../core/url/brand-matching/ownership.ts';
import type { BrandCatalog } from '../../core/url/catalogs.ts';
import { parseTarget, type Target } from '../../core/url/target.ts';
import { credentialFunnel } from '../content/credential-fields.ts';
import type { HtmlDocument } from '../content/html-document.ts';
import { pageViewOf } from '../content/page-view.ts';

export interface ForeignIdentity {
  /** The name the page gives itself, lower-cased words. */
  name: string;
  /** Where the page names it: `title`, `site_name`, `heading`, `logo`, `copyright`, `asset_domain`. */
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
    .replace(
      /\blogo(?:type)?s?\b|\bicon\b|\bwhite\b|\bblack\b|\bdark\b|\blight\b|\bsmall\b|\blarge\b|\bheader\b/gi,
      ' ',
    );
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
    const m = HEADING_NAME.exec(h.replace(/\s+/g, ' ').trim());
    const name = m ? coreName(m[1] ?? m[2] ?? '') : undefined;
    if (name) cues.push({ kind: 'heading', name });
  }
  for (const img of doc.images.slice(0, 40)) {
    const isLogo = /\blogo/i.test(`${img.alt} ${img.src}`);
    if (!isLogo) continue;
    const alt = coreName(img.alt.replace(/\blogo\b/gi, ' '));
    if (alt) cues.push({ kind: 'logo', name: alt });
    const file = fileCore(img.src);
    if (file) cues.push({ kind: 'logo', name: file });
    // A logo loaded from another site names that site: a copied page keeps its original's image URLs.
    const label = /^https?:/i.test(img.src) ? registrableLabel(img.src, page) : undefined;
    if (label) cues.push({ kind: 'asset_domain', name: [label] });
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
  if (!view) return undefined;
  const { doc, page } = view;
  if (page.isIp || brandOwning(page, catalog)) return undefined;
  if (view.visibleText.length > SIGN_IN_PAGE_CHARS) return undefined;
  const funnel = credentialFunnel(doc);
  if (!funnel.harvestsSecrets) return undefined;
  const cues = cuesOf(doc, view.visibleText, page);
  // Any cue naming the site itself means the page is the site's own (a tenant naming its own project included).
  if (cues.some((c) => c.kind !== 'asset_domain' && namesSite(c.name, page))) return undefined;
  const named = cues.filter((c) => c.kind !== 'asset_domain');
  let best: ForeignIdentity | undefined;
  for (const c of named) {
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
