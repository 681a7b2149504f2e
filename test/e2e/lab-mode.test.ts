// PREFLIGHT_LAB: the service builds a lab of its own and points every evidence source at it.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT_DIR } from '../../core/config.ts';
import { CtClient, DnsResolver, HttpFetcher, RdapClient } from '../../core/evidence/sources/index.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const SITES = path.join(ROOT_DIR, '..', 'shared', 'eval', 'phishing', 'sites');

describe('lab mode', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ labSitesDir: SITES });
  });
  after(() => t.close());

  it('starts a lab and wires every source client to it', async () => {
    assert.ok(t.app.lab, 'the app owns a lab');
    const c = t.app.container;
    const dns = await c.resolve(DnsResolver).addresses('parcel-redelivery-center.com');
    assert.ok(dns.ok, JSON.stringify(dns));
    const rdap = await c.resolve(RdapClient).lookupDomain('parcel-redelivery-center.com');
    assert.ok(rdap.ok && rdap.value.age_days === 4, JSON.stringify(rdap));
    const ct = await c.resolve(CtClient).search('docview-secure-login.top');
    assert.ok(ct.ok && ct.value.length >= 1);
    const page = await c.resolve(HttpFetcher).fetchPage('https://login-microsoftonline-secure.com/');
    assert.equal(page.hops[1]?.kind, 'http', 'the 302 of the site folder is followed as an HTTP hop');
    assert.match(page.final_url ?? '', /oauth2\/v2\.0\/authorize/);
    assert.equal((await t.request('GET', '/readyz')).status, 200);
  });
});
