/**
 * Recognise a bot-management interstitial from what the browser saw. A challenge page means the capture shows the
 * vendor's gate, not the site: the scanner must not read its content as the site's. Regexes are bounded literals.
 */

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
  name: string;
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
    name: 'turnstile',
    matches: (s, hay) =>
      /challenges\.cloudflare\.com\/turnstile|class="cf-turnstile"/i.test(`${hay.urls} ${hay.html}`) && widgetPage(s),
  },
  {
    name: 'hcaptcha',
    matches: (s, hay) =>
      /hcaptcha\.com\/1\/api\.js|js\.hcaptcha\.com|class="h-captcha"/i.test(`${hay.urls} ${hay.html}`) && widgetPage(s),
  },
];

export function detectVendorChallenge(signals: ChallengeSignals): string | undefined {
  // Bounded haystacks: the html is already capped; the URL list is joined once, at most a few hundred entries.
  const hay = { html: signals.html, urls: signals.urls.slice(0, 1_000).join('\n') };
  return VENDORS.find((vendor) => vendor.matches(signals, hay))?.name;
}
