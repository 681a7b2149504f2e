// Brands whose look is cloned by streaming and marketplace kits. The catalog in rules/brands.json holds the
// brands every detector protects; these lists are wider on purpose (they only name what a page claims to be,
// never raise a flag alone), and each name carries the domains where it is the genuine brand.
import type { Target } from '../../core/plugin-api.ts';

export interface VocabularyBrand {
  id: string;
  /** Lower-case names as they appear in page text. */
  pattern: RegExp;
  domains: readonly string[];
}

export const STREAMING_BRANDS: readonly VocabularyBrand[] = [
  { id: 'netflix', pattern: /\bnetflix\b/, domains: ['netflix.com'] },
  { id: 'disney_plus', pattern: /\bdisney ?(?:\+|plus)/, domains: ['disneyplus.com', 'disney.com'] },
  { id: 'hulu', pattern: /\bhulu\b/, domains: ['hulu.com'] },
  { id: 'hbo_max', pattern: /\bhbo ?max\b|\bhbo\b/, domains: ['hbomax.com', 'max.com', 'hbo.com'] },
  { id: 'prime_video', pattern: /\bprime ?video\b/, domains: ['primevideo.com', 'amazon.com'] },
  { id: 'apple_tv', pattern: /\bapple ?tv\b|\bapple music\b/, domains: ['apple.com', 'tv.apple.com'] },
  { id: 'spotify', pattern: /\bspotify\b/, domains: ['spotify.com'] },
  { id: 'paramount_plus', pattern: /\bparamount ?(?:\+|plus)/, domains: ['paramountplus.com'] },
  { id: 'peacock', pattern: /\bpeacock ?tv\b/, domains: ['peacocktv.com'] },
  { id: 'youtube_premium', pattern: /\byoutube (?:premium|tv|music)\b/, domains: ['youtube.com'] },
  { id: 'crunchyroll', pattern: /\bcrunchyroll\b/, domains: ['crunchyroll.com'] },
  { id: 'deezer', pattern: /\bdeezer\b/, domains: ['deezer.com'] },
  { id: 'dazn', pattern: /\bdazn\b/, domains: ['dazn.com'] },
  { id: 'canal_plus', pattern: /\bcanal ?\+/, domains: ['canalplus.com'] },
];

export const MARKETPLACE_BRANDS: readonly VocabularyBrand[] = [
  {
    id: 'amazon',
    pattern: /\bamazon\b/,
    domains: [
      'amazon.com',
      'amazon.co.uk',
      'amazon.de',
      'amazon.fr',
      'amazon.it',
      'amazon.es',
      'amazon.ca',
      'amazon.co.jp',
      'amazon.in',
    ],
  },
  { id: 'ebay', pattern: /\bebay\b/, domains: ['ebay.com', 'ebay.co.uk', 'ebay.de'] },
  { id: 'walmart', pattern: /\bwalmart\b/, domains: ['walmart.com'] },
  { id: 'etsy', pattern: /\betsy\b/, domains: ['etsy.com'] },
  { id: 'aliexpress', pattern: /\baliexpress\b|\balibaba\b/, domains: ['aliexpress.com', 'alibaba.com'] },
  { id: 'mercado_libre', pattern: /\bmercado ?libre\b/, domains: ['mercadolibre.com'] },
  { id: 'rakuten', pattern: /\brakuten\b/, domains: ['rakuten.com', 'rakuten.co.jp'] },
  { id: 'temu', pattern: /\btemu\b/, domains: ['temu.com'] },
  { id: 'shein', pattern: /\bshein\b/, domains: ['shein.com'] },
  { id: 'flipkart', pattern: /\bflipkart\b/, domains: ['flipkart.com'] },
  { id: 'zalando', pattern: /\bzalando\b/, domains: ['zalando.com'] },
  { id: 'best_buy', pattern: /\bbest ?buy\b/, domains: ['bestbuy.com'] },
  { id: 'shopee', pattern: /\bshopee\b/, domains: ['shopee.com'] },
  { id: 'vinted', pattern: /\bvinted\b/, domains: ['vinted.com'] },
];

/**
 * Route shapes of marketplaces' own sign-in and payment pages. Kits copy them so the address bar looks right;
 * on anyone else's host they are a fingerprint of the kit (`/ap/signin` on `order-hold-review.shop`).
 */
export const MARKETPLACE_PATHS: readonly { brand: string; pattern: RegExp }[] = [
  { brand: 'amazon', pattern: /^\/ap\/(?:signin|cvf|mfa|register|forgotpassword)\b/i },
  { brand: 'amazon', pattern: /^\/gp\/(?:css|your-account|buy|cart|sign-in|homepage)\b/i },
  { brand: 'amazon', pattern: /^\/cpe\/yourpayments\b/i },
  { brand: 'ebay', pattern: /\/ebayisapi\.dll\b/i },
  { brand: 'ebay', pattern: /^\/signin\/s\b|^\/ws\/ebay/i },
  { brand: 'walmart', pattern: /^\/account\/login\?.{0,200}\bwalmart/i },
  { brand: 'aliexpress', pattern: /^\/login\.htm\b/i },
];

function ownsHost(domains: readonly string[], host: string): boolean {
  return domains.some((d) => host === d || host.endsWith(`.${d}`));
}

/** Brands named in `text` (normalised) that do not own the page's host. */
export function brandsClaimed(vocabulary: readonly VocabularyBrand[], text: string, page: Target): string[] {
  return vocabulary.filter((b) => b.pattern.test(text) && !ownsHost(b.domains, page.host)).map((b) => b.id);
}

/** Marketplace route shapes among the page's own URL, form actions and same-host links. */
export function marketplacePathsIn(urls: readonly string[], page: Target): { brand: string; path: string }[] {
  const hits: { brand: string; path: string }[] = [];
  const seen = new Set<string>();
  for (const raw of urls) {
    let url: URL;
    try {
      url = new URL(raw, page.url);
    } catch {
      continue;
    }
    if (url.hostname.toLowerCase() !== page.host) continue;
    const path = `${url.pathname}${url.search}`.slice(0, 512);
    for (const { brand, pattern } of MARKETPLACE_PATHS) {
      if (!pattern.test(path) || seen.has(url.pathname)) continue;
      const owner = MARKETPLACE_BRANDS.find((b) => b.id === brand);
      if (owner && ownsHost(owner.domains, page.host)) continue;
      seen.add(url.pathname);
      hits.push({ brand, path: url.pathname });
    }
  }
  return hits.slice(0, 10);
}
