// Recognised bot-management challenges. A marker is either proof of a challenge on its own (`_cf_chl_opt`,
// `px-captcha`, `cf-mitigated: challenge`) or only a sign that the vendor protects the site (its sensor script, a
// captcha widget, a tracking header), which counts as a challenge only on a page with nothing else on it: a
// login form with an hCaptcha widget, or a shop behind Cloudflare, is not a scanner block.

export interface VendorChallenge {
  vendor: string;
  marker: string;
  source: 'html' | 'header' | 'browser';
}

interface Marker {
  vendor: string;
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
  vendor: string;
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
