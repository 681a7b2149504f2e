import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type ChallengeSignals, detectVendorChallenge } from '../../core/evidence/browser/vendor-challenge.ts';

const LONG_LOGIN_TEXT = `Sign in to your account. ${'Email address Password Forgot your password? '.repeat(20)}`;

function signals(overrides: Partial<ChallengeSignals>): ChallengeSignals {
  return {
    html: '<html><body>hello</body></html>',
    visible_text: 'hello',
    title: '',
    urls: [],
    headers: [],
    cookies: [],
    ...overrides,
  };
}

test('each vendor is recognised from the signal it leaves', () => {
  const cases: [string, Partial<ChallengeSignals>][] = [
    ['cloudflare', { headers: [{ 'cf-mitigated': 'challenge', server: 'cloudflare' }] }],
    ['cloudflare', { urls: ['https://shop.example/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1'] }],
    ['cloudflare', { title: 'Just a moment...', html: '<script>window._cf_chl_opt={cType:"managed"}</script>' }],
    ['perimeterx', { html: '<div id="px-captcha"></div>' }],
    ['datadome', { urls: ['https://geo.captcha-delivery.com/captcha/?initialCid=x'] }],
    ['datadome', { headers: [{ 'x-datadome': 'protected' }] }],
    ['imperva', { html: '<iframe src="/_Incapsula_Resource?SWUDNSAI=31"></iframe>' }],
    ['akamai', { title: 'Access Denied', html: '<p>Reference #18.2f1b3e17 https://errors.edgesuite.net/18.2f</p>' }],
    ['akamai', { html: '<div id="sec-if-cpt-container"></div>' }],
    ['aws_waf', { urls: ['https://abc123.token.awswaf.com/abc123/challenge.js'] }],
    [
      'cloudflare_turnstile',
      { html: '<div class="cf-turnstile" data-sitekey="x"></div>', visible_text: 'Verify you are human' },
    ],
    ['hcaptcha', { urls: ['https://js.hcaptcha.com/1/api.js'], visible_text: 'Please complete the security check' }],
  ];
  for (const [vendor, overrides] of cases) {
    assert.equal(detectVendorChallenge(signals(overrides)), vendor, JSON.stringify(overrides));
  }
});

test('a captcha widget on an ordinary login page is not a challenge page', () => {
  assert.equal(
    detectVendorChallenge(
      signals({
        html: '<form><input name="email"><div class="cf-turnstile"></div></form>',
        visible_text: LONG_LOGIN_TEXT,
        title: 'Sign in',
      }),
    ),
    undefined,
  );
});

test('an ordinary page behind Cloudflare is not a challenge', () => {
  assert.equal(
    detectVendorChallenge(signals({ headers: [{ server: 'cloudflare', 'cf-ray': '8c1f-AMS' }] })),
    undefined,
  );
});

// A hang guard, not a speed assertion: the patterns are literal alternations with no nested quantifiers, so even
// a capped hostile DOM finishes; a catastrophic-backtracking regression would hit the timeout instead of passing.
test('detection finishes on a capped hostile DOM', { timeout: 30_000 }, () => {
  const html = `<div class="${'a'.repeat(200)} `.repeat(4_000).slice(0, 1_000_000);
  assert.equal(
    detectVendorChallenge(signals({ html, visible_text: 'x'.repeat(100_000), title: 'Just a moment' })),
    undefined,
  );
});
