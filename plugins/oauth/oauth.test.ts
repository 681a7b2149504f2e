import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTarget } from '../../core/engine/url/target.ts';
import { shippedCatalogs } from '../../test/support/catalogs.ts';
import { readAuthorizeFlow } from '../_shared/oauth/authorize-flow.ts';
import { MAX_PARAMS, parseQuery, urlParams } from '../_shared/oauth/params.ts';
import { analyzeOAuth } from './analyze.ts';
import { decodeOneLayer, findEncodedAuthorizeTargets, PAYLOAD_LIMITS } from './encoded-payload.ts';
import { handoffTermsIn } from './handoff.ts';
import oauth from './index.ts';
import { authorizeFlowAnomalies } from './malformed-flow.ts';

const { brands } = shippedCatalogs();
const AUTHORIZE =
  'https://login.microsoftonline.com/common/oauth2/v2.0/authorize?client_id=1&redirect_uri=https://evil.example/cb&response_type=code';
const b64 = (s: string) => Buffer.from(s).toString('base64');
const recognizeQuery = (text: string) =>
  text.includes('client_id=') && text.includes('redirect_uri=') ? '' : undefined;
const anomalies = (url: string, onProviderHost = false) =>
  authorizeFlowAnomalies(readAuthorizeFlow(new URL(url)), onProviderHost);

describe('urlParams', () => {
  it('reads query and fragment parameters, including SPA-style fragments', () => {
    const params = urlParams(new URL('https://a.example/cb?code=1#/done?state=2'));
    assert.deepEqual(
      params.map((p) => [p.name, p.value, p.from]),
      [
        ['code', '1', 'query'],
        ['state', '2', 'fragment'],
      ],
    );
  });

  it('ignores a fragment that is only an anchor', () => {
    assert.deepEqual(urlParams(new URL('https://a.example/docs#section-2')), []);
  });

  it('caps the number of parameters and the size of a 100 KB query string', () => {
    const query = Array.from({ length: 20_000 }, (_, i) => `p${i}=v`).join('&');
    const params = urlParams(new URL(`https://a.example/?${query}`));
    assert.equal(params.length, MAX_PARAMS);
    const one = parseQuery(`x=${'A'.repeat(100_000)}`);
    assert.ok(one[0]!.value.length < 100_000);
  });
});

describe('readAuthorizeFlow', () => {
  it('recognises provider authorize endpoints by path', () => {
    for (const url of [
      'https://accounts.google.com/o/oauth2/v2/auth',
      'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
      'https://github.com/login/oauth/authorize',
      'https://kc.example/realms/x/protocol/openid-connect/auth',
      'https://www.facebook.com/v19.0/dialog/oauth',
    ]) {
      assert.ok(readAuthorizeFlow(new URL(url)).isAuthorizeFlow, url);
    }
  });

  it('names the provider whose distinctive path is used', () => {
    assert.equal(
      readAuthorizeFlow(new URL('https://x.example/organizations/oauth2/v2.0/authorize')).providerPath,
      'microsoft',
    );
    assert.equal(readAuthorizeFlow(new URL('https://x.example/o/oauth2/auth')).providerPath, 'google');
    assert.equal(readAuthorizeFlow(new URL('https://x.example/oauth2/authorize')).providerPath, undefined);
  });

  it('needs client_id or response_type before a bare /authorize counts', () => {
    assert.ok(!readAuthorizeFlow(new URL('https://app.example/authorize?redirect_uri=/home')).isAuthorizeFlow);
    assert.ok(readAuthorizeFlow(new URL('https://app.example/authorize?client_id=a')).isAuthorizeFlow);
  });

  it('recognises a flow by its parameters alone', () => {
    assert.ok(
      readAuthorizeFlow(new URL('https://app.example/start?client_id=a&redirect_uri=https://b.example/'))
        .isAuthorizeFlow,
    );
    assert.ok(!readAuthorizeFlow(new URL('https://app.example/login?redirect_uri=https://b.example/')).isAuthorizeFlow);
  });
});

describe('decodeOneLayer', () => {
  it('decodes hex, base64 and URL-safe base64 to readable text', () => {
    const text = 'client_id=1&redirect_uri=https://a.example/?x=1';
    assert.deepEqual(decodeOneLayer(Buffer.from(text).toString('hex')).find((l) => l.encoding === 'hex')?.text, text);
    assert.deepEqual(decodeOneLayer(b64(text)), [{ encoding: 'base64', text }]);
    const urlSafe = Buffer.from(`${text}??>>`).toString('base64url');
    assert.ok(urlSafe.includes('_') || urlSafe.includes('-'));
    assert.deepEqual(decodeOneLayer(urlSafe), [{ encoding: 'base64url', text: `${text}??>>` }]);
  });

  it('restores the + that URLSearchParams turned into a space', () => {
    const raw = Buffer.from('>>>?client_id=1&response_type=code>>>').toString('base64');
    assert.ok(raw.includes('+'));
    assert.equal(decodeOneLayer(raw.replaceAll('+', ' '))[0]?.text, '>>>?client_id=1&response_type=code>>>');
  });

  it('peels one percent layer and survives a lone %', () => {
    assert.deepEqual(decodeOneLayer('https%3A%2F%2Fa.example'), [{ encoding: 'percent', text: 'https://a.example' }]);
    assert.deepEqual(decodeOneLayer('100%'), []);
    assert.deepEqual(decodeOneLayer('%E0%A4%A'), []);
  });

  it('rejects binary results, short strings and impossible lengths', () => {
    assert.deepEqual(decodeOneLayer('9e107d9d372bb6826bd81d3542a419d6'), []); // an MD5 digest
    assert.deepEqual(decodeOneLayer('aGVsbG8='), []); // "hello": too short to hide a URL
    assert.deepEqual(decodeOneLayer('QUJDREVGR0hJSktMTU5PUFFSU1RVVldY' + 'Q'), []); // length % 4 === 1
  });
});

describe('findEncodedAuthorizeTargets', () => {
  const find = (value: string) =>
    findEncodedAuthorizeTargets(parseQuery(`v=${encodeURIComponent(value)}`), recognizeQuery);

  it('reports the decoding chain', () => {
    const hits = find(b64(b64('client_id=1&redirect_uri=https://a.example/cb')));
    assert.equal(hits.length, 1);
    assert.deepEqual(hits[0]!.encodings, ['base64', 'base64']);
  });

  it('ignores a target that was never encoded', () => {
    assert.deepEqual(find('client_id=1&redirect_uri=https://a.example/cb'), []);
  });

  it('searches parameters of URLs found on the way', () => {
    const hits = find(b64(`https://hop.example/r?p=${b64('client_id=1&redirect_uri=https://a.example/cb')}`));
    assert.deepEqual(hits[0]?.encodings, ['base64', 'base64']);
  });

  it('stops after the maximum depth', () => {
    let value = 'client_id=1&redirect_uri=https://a.example/cb';
    for (let i = 0; i < PAYLOAD_LIMITS.maxDepth; i++) value = b64(value);
    assert.equal(find(value).length, 1);
    assert.deepEqual(find(b64(value)), []);
  });

  it('decodes nothing out of 100 KB values and thousands of nested values', () => {
    assert.deepEqual(find('A'.repeat(100_000)), []);
    assert.deepEqual(
      find(`https://a.example/?${Array.from({ length: 5000 }, () => `x=${b64('y'.repeat(40))}`).join('&')}`),
      [],
    );
    assert.deepEqual(find(b64(`${'%41'.repeat(10_000)}`)), []);
  });
});

describe('authorizeFlowAnomalies', () => {
  it('flags dangerous, relative and userinfo callbacks', () => {
    assert.deepEqual(anomalies('https://a.example/oauth2/authorize?client_id=1&redirect_uri=javascript:alert(1)'), [
      'redirect_uri_dangerous_scheme',
    ]);
    assert.deepEqual(anomalies('https://a.example/oauth2/authorize?client_id=1&redirect_uri=//b.example/cb'), [
      'redirect_uri_not_absolute',
    ]);
    assert.deepEqual(
      anomalies('https://a.example/oauth2/authorize?client_id=1&redirect_uri=https://a.example@b.example/'),
      ['redirect_uri_userinfo'],
    );
  });

  it('accepts native-app and out-of-band callbacks', () => {
    assert.deepEqual(anomalies('https://a.example/oauth2/authorize?client_id=1&redirect_uri=com.example.app:/cb'), []);
    assert.deepEqual(
      anomalies('https://a.example/oauth2/authorize?client_id=1&redirect_uri=urn:ietf:wg:oauth:2.0:oob'),
      [],
    );
  });

  it('flags inconsistent response modes, code-in-fragment only off provider hosts', () => {
    const tokenInQuery =
      'https://a.example/oauth2/authorize?client_id=1&response_type=id_token+token&response_mode=query';
    assert.deepEqual(anomalies(tokenInQuery), ['token_in_query_response_mode']);
    const codeInFragment = 'https://a.example/oauth2/authorize?client_id=1&response_type=code&response_mode=fragment';
    assert.deepEqual(anomalies(codeInFragment), ['code_in_fragment_response_mode']);
    assert.deepEqual(anomalies(codeInFragment, true), []);
  });

  it('flags missing client_id, unknown response types and conflicting duplicates', () => {
    assert.deepEqual(anomalies('https://a.example/oauth2/authorize?redirect_uri=https://a.example/cb'), [
      'missing_client_id',
    ]);
    assert.deepEqual(anomalies('https://a.example/oauth2/authorize?client_id=1&response_type=code_token'), [
      'unknown_response_type',
    ]);
    assert.deepEqual(anomalies('https://a.example/oauth2/authorize?client_id=1&client_id=2'), ['duplicate_parameter']);
    assert.deepEqual(anomalies('https://a.example/oauth2/authorize?client_id=1&client_id=1'), []);
  });

  it('says nothing about URLs that are not authorize flows', () => {
    assert.deepEqual(anomalies('https://a.example/login?redirect_uri=javascript:alert(1)'), []);
  });
});

describe('handoffTermsIn', () => {
  it('finds handoff and consent wording whatever the spacing and case', () => {
    assert.deepEqual(handoffTermsIn('Please SIGN IN with your\n Microsoft   account to continue.'), [
      'sign in with your account to continue',
    ]);
    assert.deepEqual(handoffTermsIn('MailSync wants to access your contacts'), ['wants to access your account']);
  });

  it('ignores bare social-login buttons', () => {
    assert.deepEqual(handoffTermsIn('Sign in with Google · Continue with Microsoft · Log in'), []);
  });

  it('matches only bounded repeats on hostile text', () => {
    assert.deepEqual(handoffTermsIn('sign in with your '.repeat(20_000)), []);
    assert.deepEqual(handoffTermsIn(`allow ${'a '.repeat(100_000)}`), []);
  });
});

describe('analyzeOAuth', () => {
  it('keeps a real provider flow clean and says so', () => {
    const a = analyzeOAuth(
      parseTarget(
        'https://accounts.google.com/o/oauth2/v2/auth?client_id=1.apps.googleusercontent.com&redirect_uri=https://app.example/cb&response_type=code&scope=openid email',
      ),
      brands,
    );
    assert.equal(a.authorize_flow, true);
    assert.equal(a.provider_mismatch, false);
    assert.deepEqual(a.authorize_flow_anomalies, []);
    assert.deepEqual(a.provider_hints, [
      { brand: 'google', source: 'host', value: 'accounts.google.com' },
      { brand: 'google', source: 'path_shape', value: '/o/oauth2/v2/auth' },
    ]);
    assert.equal(a.redirect_host, 'app.example');
    assert.deepEqual(a.scopes, ['openid', 'email']);
    assert.equal(a.recommended_action, 'allow');
  });

  it('reports the decoded target and recommends blocking', () => {
    const a = analyzeOAuth(parseTarget(`https://share.example/v?d=${b64(AUTHORIZE)}`), brands);
    assert.equal(a.decoded_targets[0]?.authorize_host, 'login.microsoftonline.com');
    assert.equal(a.recommended_action, 'block');
  });

  it('records parameter hints without calling them a mismatch', () => {
    const a = analyzeOAuth(
      parseTarget(
        'https://id.example/authorize?client_id=1&response_type=code&redirect_uri=https://a.example/&provider=google',
      ),
      brands,
    );
    assert.deepEqual(
      a.provider_hints.map((h) => h.source),
      ['param'],
    );
    assert.equal(a.provider_mismatch, false);
  });
});

describe('oauth plugin', () => {
  it('returns no findings and no data for an ordinary URL', async () => {
    const detector = oauth.create({ deps: { brands }, config: undefined });
    const out = await detector.detect({
      surface: 'agent_action',
      target: parseTarget('https://example.com/about'),
      signal: new AbortController().signal,
    });
    assert.deepEqual(out, { findings: [], data: undefined });
  });
});
