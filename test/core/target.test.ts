import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTarget } from '../../core/engine/url/target.ts';

describe('parseTarget', () => {
  it('reads bare hosts as https, keeps ports, and refuses other schemes', () => {
    assert.equal(parseTarget('example.com').url.href, 'https://example.com/');
    assert.equal(parseTarget('example.com:8443/a').url.href, 'https://example.com:8443/a');
    assert.throws(() => parseTarget('javascript:alert(1)'), /http or https/);
    assert.throws(() => parseTarget('ftp://example.com'), /http or https/);
    assert.throws(() => parseTarget(''), /non-empty/);
  });

  it('names the site a tenant of a shared platform owns, not the platform', () => {
    const t = parseTarget('https://account-hold-renewal.vercel.app/login');
    assert.equal(t.site, 'account-hold-renewal.vercel.app');
    assert.equal(t.registrableDomain, 'vercel.app');
    assert.equal(t.privateSuffix, 'vercel.app');
  });

  it('normalises IP spellings and sees userinfo and punycode', () => {
    assert.equal(parseTarget('http://2130706433/').host, '127.0.0.1');
    assert.equal(parseTarget('http://0x7f.1/').isIp, true);
    assert.equal(parseTarget('https://paypal.com@evil.example/').userinfo, 'paypal.com');
    assert.equal(parseTarget('https://paypal.com@evil.example/').host, 'evil.example');
    assert.equal(parseTarget('https://xn--pypal-4ve.com/').unicodeHost, 'p\u0430ypal.com');
  });
});
