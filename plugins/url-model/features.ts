// Lexical features of a URL for the learned URL scorer: what the address alone says, hashed into a fixed-size
// sparse vector. Training (scripts/train-url.ts) and inference (index.ts) share this one function, so the model
// always sees the features it was trained on.

import type { BrandCatalog, HostingCatalog, Target } from '../../core/plugin-api.ts';
import { findImpersonation } from '../_shared/brand-matching/impersonation.ts';
import { lureWordsIn, wordRuns } from '../_shared/brand-matching/lexicon.ts';

/** Only this much of the path and query is read: lures sit near the start, and the input is attacker-sized. */
const MAX_PATH_CHARS = 512;
/** At most this many path words: enough for `/wp-content/plugins/x/login.php`, bounded for long slugs. */
const MAX_PATH_WORDS = 24;

/** Words phishing paths and hosts lean on besides the credential-lure words (parcel, invoice, prize, support…). */
const EXTRA_LURE_WORDS: ReadonlySet<string> = new Set([
  'invoice',
  'payment',
  'pay',
  'refund',
  'parcel',
  'delivery',
  'tracking',
  'track',
  'customs',
  'fee',
  'prize',
  'reward',
  'bonus',
  'gift',
  'claim',
  'airdrop',
  'free',
  'support',
  'helpdesk',
  'service',
  'notice',
  'alert',
  'blocked',
  'locked',
  'limited',
  'restore',
  'activate',
  'auth',
  'session',
  'token',
  'connect',
  'dapp',
  'mint',
  'bank',
  'online',
  'mobile',
  'app',
  'office',
  'mail',
  'docs',
  'document',
  'share',
  'file',
  'download',
]);

const COMMON_TLDS: ReadonlySet<string> = new Set(['com', 'net', 'org', 'edu', 'gov', 'mil', 'int']);

/** Bucket a count so the linear model sees a shape (0, 1, 2, 3-4, 5-8, 9+) rather than a raw number. */
function bucket(n: number): string {
  if (n <= 2) return String(n);
  if (n <= 4) return '3-4';
  if (n <= 8) return '5-8';
  if (n <= 16) return '9-16';
  return '17+';
}

/** Shannon entropy of a label in bits per character, bucketed (random-looking names score high). */
function entropyBucket(s: string): string {
  if (s.length === 0) return 'empty';
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const c of counts.values()) {
    const p = c / s.length;
    h -= p * Math.log2(p);
  }
  return (Math.round(h * 2) / 2).toFixed(1);
}

function lengthBucket(n: number): string {
  if (n <= 6) return '<=6';
  if (n <= 10) return '7-10';
  if (n <= 15) return '11-15';
  if (n <= 20) return '16-20';
  if (n <= 30) return '21-30';
  return '31+';
}

/** Character trigrams of a label, with edge markers: how the model reads made-up and look-alike names. */
function trigrams(label: string): string[] {
  const padded = `^${label}$`;
  const out: string[] = [];
  for (let i = 0; i + 3 <= padded.length && i < 64; i++) out.push(padded.slice(i, i + 3));
  return out;
}

export interface UrlFeatureContext {
  brands: BrandCatalog;
  hosting: HostingCatalog;
}

/**
 * The named features of `target` (strings; the caller hashes them). Each family carries a prefix so a report can
 * say which family moved the score.
 */
export function urlFeatures(target: Target, ctx: UrlFeatureContext): string[] {
  const f: string[] = ['bias'];
  const host = target.host;
  if (target.isIp) {
    f.push('host:ip');
  } else {
    const labels = host.split('.');
    const tld = labels[labels.length - 1] ?? '';
    // The big generic TLDs carry no signal of their own, and the public benign lists over-represent .edu and
    // .gov: one shared feature keeps the model from learning those lists' shape instead of phishing's.
    f.push(COMMON_TLDS.has(tld) ? 'tld:common' : `tld:${tld}`);
    if (ctx.hosting.suspiciousTld(host)) f.push('tld:suspicious');
    // The name the site's owner chose: a tenant's own label on shared platforms, never the platform's
    // (`pages` in `x.pages.dev` says nothing about x).
    const free = ctx.hosting.freeHostingFor(target);
    const regLabel = free ? free.tenant : (target.site.split('.')[0] ?? '');
    const subdomain = target.subdomain;
    const subLabels = subdomain ? subdomain.split('.') : [];
    f.push(`host:labels:${bucket(labels.length)}`);
    f.push(`host:len:${lengthBucket(host.length)}`);
    f.push(`reg:len:${lengthBucket(regLabel.length)}`);
    f.push(`reg:entropy:${entropyBucket(regLabel)}`);
    f.push(`reg:hyphens:${bucket((regLabel.match(/-/g) ?? []).length)}`);
    f.push(`reg:digits:${bucket((regLabel.match(/[0-9]/g) ?? []).length)}`);
    f.push(`host:digits:${bucket((host.match(/[0-9]/g) ?? []).length)}`);
    f.push(`host:hyphens:${bucket((host.match(/-/g) ?? []).length)}`);
    if (host.includes('xn--')) f.push('host:punycode');
    if (subLabels[0] === 'www' && subLabels.length === 1) f.push('sub:www_only');
    else if (subLabels.length > 0) f.push(`sub:depth:${bucket(subLabels.length)}`);
    for (const word of wordRuns(regLabel)) f.push(`reg:word:${word}`);
    for (const tri of trigrams(regLabel)) f.push(`reg:tri:${tri}`);
    for (const label of subLabels.slice(0, 6)) {
      if (label === 'www') continue;
      for (const word of wordRuns(label)) f.push(`sub:word:${word}`);
    }
    for (const word of lureWordsIn(host)) f.push(`host:lure:${word}`);
    for (const word of wordRuns(host)) if (EXTRA_LURE_WORDS.has(word)) f.push(`host:bait:${word}`);
    if (free) {
      f.push('host:free_hosting');
    } else if (target.privateSuffix) {
      f.push('host:shared_suffix');
    }
  }
  for (const hit of findImpersonation(target, ctx.brands)) f.push(`brand:${hit.technique}`);
  if (target.userinfo) f.push('url:userinfo');
  if (target.url.port) f.push('url:port');

  const pathAndQuery = `${target.url.pathname}${target.url.search}`.slice(0, MAX_PATH_CHARS).toLowerCase();
  // Path shape (depth, length, parameter counts) is left out on purpose: in public lists it says more about how
  // each list was collected than about phishing. What the path says (words, extension, escapes) stays.
  const segments = target.url.pathname.split('/').filter(Boolean);
  const last = segments[segments.length - 1] ?? '';
  const ext = /\.([a-z0-9]{1,5})$/.exec(last.toLowerCase())?.[1];
  if (ext) f.push(`path:ext:${ext}`);
  if (/%[0-9a-f]{2}/i.test(pathAndQuery)) f.push('path:escaped');
  if (/[a-z0-9+/]{40,}={0,2}/i.test(pathAndQuery)) f.push('path:long_token');
  if (pathAndQuery.includes('//')) f.push('path:double_slash');
  if (/https?:/.test(pathAndQuery)) f.push('path:embedded_url');
  if (pathAndQuery.includes('@')) f.push('path:at_sign');
  for (const word of wordRuns(pathAndQuery).slice(0, MAX_PATH_WORDS)) {
    if (word.length < 2 || word.length > 20 || /^\d+$/.test(word)) continue;
    f.push(`path:word:${word}`);
  }
  for (const word of lureWordsIn(pathAndQuery)) f.push(`path:lure:${word}`);
  for (const { brand } of findBrandWordsInPath(pathAndQuery, ctx.brands)) f.push(`path:brand:${brand}`);
  return f;
}

/** Brands named in the path (any brand, one feature each): a brand in the path off the brand's site is a cue. */
function findBrandWordsInPath(pathAndQuery: string, brands: BrandCatalog): { brand: string }[] {
  const words = new Set(wordRuns(pathAndQuery).slice(0, MAX_PATH_WORDS));
  const out: { brand: string }[] = [];
  for (const b of brands.brands) if (b.tokens.some((t) => words.has(t))) out.push({ brand: 'any' });
  return out.slice(0, 1);
}

/** FNV-1a 32-bit: a stable, dependency-free hash (the same in training and inference). */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Feature names → bucket indexes (deduplicated: a feature present twice counts once). */
export function hashFeatures(names: readonly string[], bits: number): number[] {
  const mask = (1 << bits) - 1;
  return [...new Set(names.map((n) => fnv1a(n) & mask))];
}
