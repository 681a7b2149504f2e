/**
 * The one table of bot-management challenges (Cloudflare, Akamai, PerimeterX…): every vendor name the service
 * reports, and the two readings of it. A browser capture (detectVendorChallenge) sees requests, cookies, headers and
 * the final DOM; a fetched page (findVendorChallenge, the content detector's static reading) sees its HTML and
 * response headers. Both report names from CHALLENGE_VENDORS, so a page reads as the same vendor either way. A
 * challenge page means the capture shows the vendor's gate, not the site: the scanner must not read its content as
 * the site's. Regexes are bounded literals. Order within each list is precedence (first match wins).
 */

export const CHALLENGE_VENDORS = [
  'cloudflare',
  'cloudflare_turnstile',
  'akamai',
  'perimeterx',
  'datadome',
  'imperva',
  'aws_waf',
  'hcaptcha',
  'sucuri',
  'vercel',
] as const;
export type ChallengeVendor = (typeof CHALLENGE_VENDORS)[number];

// --- Browser capture -------------------------------------------------------------------------------------------

export interface ChallengeSignals {
  /** Final DOM (capped). */
  html: string;
  visible_text: string;
  title: string;
  /** Every request URL the page made, main frame and subresources. */
  urls: readonly string[];
  /** Response headers of the main-frame documents, lower-case names. */
  headers: readonly Record<string, string>[];
  /** Names of cookies set in the context. */
  cookies: readonly string[];
}

interface Vendor {
  name: ChallengeVendor;
  matches(signals: ChallengeSignals, hay: { html: string; urls: string }): boolean;
}

const HUMAN_CHECK_TEXT =
  /verify (?:you are|you're|that you are) (?:a )?human|checking (?:your|if the site connection is secure)|are you a robot|confirm you are not a robot|security check/i;

/** A widget embedded in an ordinary page is not a challenge page; little else on the page, or human-check wording, is. */
function widgetPage(signals: ChallengeSignals): boolean {
  return signals.visible_text.trim().length < 600 || HUMAN_CHECK_TEXT.test(`${signals.title} ${signals.visible_text}`);
}

// Order matters: the specific vendors first, generic captcha widgets last (a Cloudflare challenge embeds Turnstile).
const VENDORS: readonly Vendor[] = [
  {
    name: 'cloudflare',
    matches: (s, hay) =>
      s.headers.some((h) => h['cf-mitigated'] === 'challenge') ||
      /\/cdn-cgi\/challenge-platform\//.test(hay.urls) ||
      /cdn-cgi\/challenge-platform|window\._cf_chl_opt|cf-chl-|id="challenge-form"|cf_chl_/.test(hay.html) ||
      (/^just a moment/i.test(s.title.trim()) && /cloudflare/i.test(hay.html)),
  },
  {
    name: 'perimeterx',
    matches: (s, hay) =>
      /px-captcha|_pxCaptcha|window\._pxAppId|human-challenge/i.test(hay.html) ||
      /px-cdn\.net|px-cloud\.net|perimeterx\.net|captcha\.px-cdn/i.test(hay.urls) ||
      (s.cookies.includes('_px3') && /press (?:&amp; |& )?hold/i.test(s.visible_text)),
  },
  {
    name: 'datadome',
    matches: (s, hay) =>
      /captcha-delivery\.com|geo\.captcha-delivery|ct\.captcha-delivery/i.test(`${hay.urls} ${hay.html}`) ||
      s.headers.some((h) => h['x-datadome'] !== undefined || /datadome/i.test(h.server ?? '')) ||
      (s.cookies.includes('datadome') && /blocked|captcha/i.test(s.visible_text)),
  },
  {
    name: 'imperva',
    matches: (s, hay) =>
      /_Incapsula_Resource|incapsula incident id|\/_Incapsula_|Request unsuccessful\. Incapsula/i.test(
        `${hay.urls} ${hay.html}`,
      ) || s.headers.some((h) => /incap_ses|visid_incap/i.test(h['set-cookie'] ?? '') && h['x-iinfo'] !== undefined),
  },
  {
    name: 'akamai',
    matches: (s, hay) =>
      /sec-if-cpt-container|\/_sec\/cp_challenge\/|ak-challenge|bm-verify=/i.test(`${hay.urls} ${hay.html}`) ||
      (/access denied/i.test(s.title) && /errors\.edgesuite\.net|Reference&#32;#|Reference #\d/i.test(hay.html)) ||
      (s.cookies.includes('_abck') && /\/_sec\/|sec-cpt/i.test(`${hay.urls} ${hay.html}`)),
  },
  {
    name: 'aws_waf',
    matches: (s, hay) =>
      /\.awswaf\.com|captcha\.awswaf|token\.awswaf|AwsWafIntegration|awsWafCookieDomainList/i.test(
        `${hay.urls} ${hay.html}`,
      ) || s.headers.some((h) => h['x-amzn-waf-action'] === 'captcha' || h['x-amzn-waf-action'] === 'challenge'),
  },
  {
    name: 'cloudflare_turnstile',
    matches: (s, hay) =>
      /challenges\.cloudflare\.com\/turnstile|class="cf-turnstile"/i.test(`${hay.urls} ${hay.html}`) && widgetPage(s),
  },
  {
    name: 'hcaptcha',
    matches: (s, hay) =>
      /hcaptcha\.com\/1\/api\.js|js\.hcaptcha\.com|class="h-captcha"/i.test(`${hay.urls} ${hay.html}`) && widgetPage(s),
  },
];

export function detectVendorChallenge(signals: ChallengeSignals): ChallengeVendor | undefined {
  // Bounded haystacks: the html is already capped; the URL list is joined once, at most a few hundred entries.
  const hay = { html: signals.html, urls: signals.urls.slice(0, 1_000).join('\n') };
  return VENDORS.find((vendor) => vendor.matches(signals, hay))?.name;
}

// --- Fetched page ----------------------------------------------------------------------------------------------
// A marker is either proof of a challenge on its own (`_cf_chl_opt`, `px-captcha`, `cf-mitigated: challenge`) or
// only a sign that the vendor protects the site (its sensor script, a captcha widget, a tracking header), which
// counts as a challenge only on a page with nothing else on it: a login form with an hCaptcha widget, or a shop
// behind Cloudflare, is not a scanner block.

export interface VendorChallenge {
  vendor: ChallengeVendor;
  marker: string;
  source: 'html' | 'header' | 'browser';
}

interface Marker {
  vendor: ChallengeVendor;
  marker: string;
  pattern: RegExp;
  /** `challenge`: the marker alone proves a challenge page. `protected`: only on a page without content. */
  strength: 'challenge' | 'protected';
}

const HTML_MARKERS: readonly Marker[] = [
  { vendor: 'cloudflare', marker: '_cf_chl_opt', pattern: /\b_cf_chl_opt\b/, strength: 'challenge' },
  {
    vendor: 'cloudflare',
    marker: 'challenge-platform',
    pattern: /\/cdn-cgi\/challenge-platform\//,
    strength: 'challenge',
  },
  {
    vendor: 'cloudflare',
    marker: 'cf-chl',
    pattern: /\bcf[-_]chl[-_](?:widget|bypass|prog|jschl|rc|out)|\bjschl[-_]answer\b|\bcf-browser-verification\b/,
    strength: 'challenge',
  },
  {
    vendor: 'cloudflare',
    marker: 'just-a-moment',
    pattern: /<title>\s*just a moment\.{0,3}\s*<\/title>/i,
    strength: 'protected',
  },
  {
    vendor: 'cloudflare_turnstile',
    marker: 'turnstile',
    pattern: /challenges\.cloudflare\.com\/turnstile|\bcf-turnstile\b/,
    strength: 'protected',
  },
  {
    vendor: 'akamai',
    marker: 'sec-cpt',
    pattern: /\/_sec\/cp_challenge\/|\bsec-if-cpt\b|\bsec-cpt-if\b|\bbm-verify\b/,
    strength: 'challenge',
  },
  {
    vendor: 'akamai',
    marker: 'edgesuite-reference',
    pattern: /errors\.edgesuite\.net|reference&#32;#\d|reference #\d{1,3}\.[0-9a-f]{6,}/i,
    strength: 'challenge',
  },
  {
    vendor: 'perimeterx',
    marker: 'px-captcha',
    pattern: /\bpx-captcha\b|captcha\.px-cdn\.net|\b_pxCaptcha|\bpx-block\b/i,
    strength: 'challenge',
  },
  {
    vendor: 'perimeterx',
    marker: 'px-sensor',
    pattern: /\b_pxAppId\b|client\.perimeterx\.net|\bpx-cloud\.net\b/,
    strength: 'protected',
  },
  {
    vendor: 'datadome',
    marker: 'captcha-delivery',
    pattern: /(?:geo|ct|interstitial)\.captcha-delivery\.com|\bdd=\{\s*['"]rt['"]/,
    strength: 'challenge',
  },
  { vendor: 'datadome', marker: 'datadome-tag', pattern: /js\.datadome\.co|\bdatadome\b/i, strength: 'protected' },
  {
    vendor: 'imperva',
    marker: 'incapsula-incident',
    pattern: /incapsula incident id|\bincident_id\b.{0,80}incapsula/i,
    strength: 'challenge',
  },
  { vendor: 'imperva', marker: 'incapsula-resource', pattern: /_Incapsula_Resource\b/i, strength: 'protected' },
  {
    vendor: 'aws_waf',
    marker: 'awswaf-challenge',
    pattern: /\.awswaf\.com\/[^"'\s]{0,200}challenge|\bAwsWafIntegration\b|\bawsWafCookieDomainList\b/,
    strength: 'challenge',
  },
  { vendor: 'hcaptcha', marker: 'hcaptcha', pattern: /hcaptcha\.com\/1\/api\.js|\bh-captcha\b/, strength: 'protected' },
  {
    vendor: 'sucuri',
    marker: 'sucuri-cloudproxy',
    pattern: /\bsucuri_cloudproxy_js\b|sucuri website firewall/i,
    strength: 'challenge',
  },
  { vendor: 'vercel', marker: 'security-checkpoint', pattern: /vercel security checkpoint/i, strength: 'challenge' },
];

interface HeaderMarker {
  vendor: ChallengeVendor;
  header: string;
  pattern: RegExp;
  strength: Marker['strength'];
}

const HEADER_MARKERS: readonly HeaderMarker[] = [
  { vendor: 'cloudflare', header: 'cf-mitigated', pattern: /challenge/i, strength: 'challenge' },
  { vendor: 'aws_waf', header: 'x-amzn-waf-action', pattern: /challenge|captcha/i, strength: 'challenge' },
  { vendor: 'vercel', header: 'x-vercel-mitigated', pattern: /challenge/i, strength: 'challenge' },
  { vendor: 'datadome', header: 'x-datadome', pattern: /./, strength: 'protected' },
  { vendor: 'imperva', header: 'x-iinfo', pattern: /./, strength: 'protected' },
  { vendor: 'imperva', header: 'x-cdn', pattern: /incapsula|imperva/i, strength: 'protected' },
  { vendor: 'sucuri', header: 'x-sucuri-block', pattern: /./, strength: 'challenge' },
];

export interface ChallengeFinding {
  /** The challenge met, when the page is one. */
  challenge?: VendorChallenge;
  /** Any vendor marker at all: enough to rule out a *custom* evasion gate. */
  anyMarker?: VendorChallenge;
}

/**
 * Vendor markers in a page and its response headers. `bare` says the page has no content of its own (short
 * text, nothing to type into), which promotes a `protected` marker to a challenge.
 */
export function findVendorChallenge(
  html: string,
  headers: Readonly<Record<string, string>>,
  bare: boolean,
): ChallengeFinding {
  const found: ChallengeFinding = {};
  const consider = (strength: Marker['strength'], hit: VendorChallenge) => {
    found.anyMarker ??= hit;
    if (!found.challenge && (strength === 'challenge' || bare)) found.challenge = hit;
  };
  for (const m of HEADER_MARKERS) {
    const value = headers[m.header];
    if (value !== undefined && m.pattern.test(value)) {
      consider(m.strength, { vendor: m.vendor, marker: `${m.header}: ${value.slice(0, 60)}`, source: 'header' });
    }
  }
  for (const m of HTML_MARKERS) {
    if (m.pattern.test(html)) consider(m.strength, { vendor: m.vendor, marker: m.marker, source: 'html' });
  }
  return found;
}
