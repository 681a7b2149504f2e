import 'reflect-metadata';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Resolver } from 'node:dns/promises';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { type Lab, startLab } from '../../lab/index.ts';
import { SHARED_SITES_DIR, writeSites } from './lab-fixtures.ts';

const DAY = 86_400_000;

/** Plain HTTP to a lab port (the test talks to its own loopback server, so no guard here). */
async function get(url: string, headers: Record<string, string> = {}) {
  const response = await request(url, { headers });
  return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
}

describe('lab from the shared site folder', () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab({ sitesDir: SHARED_SITES_DIR });
  });
  after(() => lab.close());

  test('exposes every endpoint on loopback and starts quickly', () => {
    for (const key of ['dns', 'http', 'https'] as const) assert.match(lab.endpoints[key], /^127\.0\.0\.1:\d+$/);
    for (const key of ['rdap', 'ct', 'history', 'hostintel'] as const)
      assert.match(lab.endpoints[key], /^http:\/\/127\.0\.0\.1:\d+\/$/);
    assert.match(lab.caPem, /BEGIN CERTIFICATE/);
    assert.ok(lab.startupMs < 5_000, `startup ${lab.startupMs} ms`);
  });

  test('connect-to maps every site (and www.) on 80/443; IP-literal sites get their own TLS port', () => {
    assert.equal(lab.connectToFor('harborviewcu.org', 443), lab.endpoints.https);
    assert.equal(lab.connectToFor('WWW.harborviewcu.org.', 443), lab.endpoints.https);
    assert.equal(lab.connectToFor('harborviewcu.org', 80), lab.endpoints.http);
    assert.match(lab.connectToFor('203.0.113.45', 443) ?? '', /^127\.0\.0\.1:\d+$/);
    assert.notEqual(lab.connectToFor('203.0.113.45', 443), lab.endpoints.https);
    assert.equal(lab.connectToFor('not-a-site.example', 443), undefined);
  });

  test('DNS answers site names, CNAMEs www., and NXDOMAINs the rest', async () => {
    const resolver = new Resolver({ timeout: 1_000, tries: 1 });
    resolver.setServers([lab.endpoints.dns]);
    assert.deepEqual(await resolver.resolve4('parcel-redelivery-center.com'), ['203.0.113.88']);
    assert.deepEqual(await resolver.resolveCname('www.parcel-redelivery-center.com'), ['parcel-redelivery-center.com']);
    assert.deepEqual(await resolver.resolveMx('parcel-redelivery-center.com'), [
      { exchange: 'mx.parcel-redelivery-center.com', priority: 10 },
    ]);
    await assert.rejects(resolver.resolve4('unknown-host.example'), { code: 'ENOTFOUND' });
  });

  test('HTTP routes by Host, applies redirects and headers, hides site.json and refuses traversal', async () => {
    const redirect = await get(`http://${lab.endpoints.http}/`, { host: 'accounts.google.com' });
    assert.equal(redirect.status, 302);
    assert.match(
      String(redirect.headers.location),
      /^https:\/\/accounts\.google\.com\/o\/oauth2\/v2\/auth\/\?client_id=/,
    );
    const page = await get(`http://${lab.endpoints.http}/`, { host: 'status.brightline-hosting.net' });
    assert.equal(page.status, 200);
    assert.equal(page.headers['cf-mitigated'], 'challenge');
    assert.match(page.text, /_cf_chl_opt/);
    assert.equal((await get(`http://${lab.endpoints.http}/site.json`, { host: 'harborviewcu.org' })).status, 404);
    assert.equal(
      (await get(`http://${lab.endpoints.http}/..%2f..%2fsites.json`, { host: 'harborviewcu.org' })).status,
      404,
    );
    assert.equal((await get(`http://${lab.endpoints.http}/`, { host: 'unknown.example' })).status, 404);
    assert.equal((await get(`http://${lab.endpoints.http}/s/7731/`, { host: 'docview-secure-login.top' })).status, 200);
  });

  test('unknown names: RDAP 404, CT and CDX empty arrays, host intel 404; host intel needs a key', async () => {
    const rdap = await get(`${lab.endpoints.rdap}domain/unknown-host.example`);
    assert.equal(rdap.status, 404);
    assert.equal(JSON.parse(rdap.text).errorCode, 404);
    assert.deepEqual(JSON.parse((await get(`${lab.endpoints.ct}?q=unknown-host.example&output=json`)).text), []);
    assert.deepEqual(
      JSON.parse((await get(`${lab.endpoints.history}cdx/search/cdx?url=unknown-host.example&output=json`)).text),
      [],
    );
    assert.equal((await get(`${lab.endpoints.hostintel}shodan/host/192.0.2.99?key=k`)).status, 404);
    assert.equal((await get(`${lab.endpoints.hostintel}shodan/host/203.0.113.88`)).status, 401);
  });

  test('RDAP domain objects follow RFC 9083 and answer a platform tenant as its registered domain', async () => {
    const body = JSON.parse((await get(`${lab.endpoints.rdap}domain/pages.dev`)).text);
    assert.equal(body.objectClassName, 'domain');
    assert.equal(body.ldhName, 'PAGES.DEV');
    assert.deepEqual(body.events.map((e: { eventAction: string }) => e.eventAction).slice(0, 3), [
      'registration',
      'expiration',
      'last changed',
    ]);
    assert.deepEqual(body.entities[0].roles, ['registrar']);
  });

  test('CDX output follows the Wayback format: header row first, fl and limit honoured', async () => {
    const rows = JSON.parse(
      (await get(`${lab.endpoints.history}cdx/search/cdx?url=harborviewcu.org&output=json`)).text,
    );
    assert.deepEqual(rows[0], ['urlkey', 'timestamp', 'original', 'mimetype', 'statuscode', 'digest', 'length']);
    assert.equal(rows[1][0], 'org,harborviewcu)/');
    assert.match(rows[1][1], /^\d{14}$/);
    const limited = JSON.parse(
      (
        await get(
          `${lab.endpoints.history}cdx/search/cdx?url=https://harborviewcu.org/*&output=json&fl=timestamp&limit=2`,
        )
      ).text,
    );
    assert.deepEqual(limited[0], ['timestamp']);
    assert.equal(limited.length, 3);
  });

  test('CT rows carry the crt.sh fields', async () => {
    const rows = JSON.parse((await get(`${lab.endpoints.ct}?q=docview-secure-login.top&output=json`)).text);
    assert.equal(rows.length, 1);
    for (const field of [
      'issuer_name',
      'common_name',
      'name_value',
      'id',
      'entry_timestamp',
      'not_before',
      'not_after',
      'serial_number',
    ]) {
      assert.ok(field in rows[0], field);
    }
    assert.equal(rows[0].issuer_name, "C=US, O=Let's Encrypt, CN=R11");
    assert.equal(rows[0].name_value, 'docview-secure-login.top\nwww.docview-secure-login.top');
  });
});

describe('lab from a written folder, on an injected clock', () => {
  const NOW = Date.now() - 5 * DAY;
  let lab: Lab;
  let cleanup: () => Promise<void>;
  before(async () => {
    const sites = await writeSites({
      'plain-defaults.test': {},
      'fresh.test': {
        site: {
          registered_days_ago: 1,
          history: { captures_days_ago: [] },
          ip: '198.51.100.9',
          asn: 14061,
          hosting_provider: 'DigitalOcean',
        },
      },
      'shared-ip.test': { site: { ip: '198.51.100.9', asn: 14061, hosting_provider: 'DigitalOcean' } },
    });
    cleanup = sites.cleanup;
    lab = await startLab({ sitesDir: sites.dir, now: NOW });
  });
  after(async () => {
    await lab.close();
    await cleanup();
  });

  test('a site without site.json gets an old domain, an old certificate and a long history', () => {
    const site = lab.sites.find((s) => s.hostname === 'plain-defaults.test')!;
    assert.equal(Math.round((NOW - site.registeredAt.getTime()) / DAY), 3650);
    assert.equal(Math.round((NOW - site.cert.notBefore.getTime()) / DAY), 330);
    assert.ok(site.cert.notAfter.getTime() > Date.now());
    assert.ok(site.captures.length >= 5);
    assert.ok(site.ct.length >= 2, 'defaults log earlier renewals too');
  });

  test('dates are relative to the injected clock', async () => {
    const body = JSON.parse((await get(`${lab.endpoints.rdap}domain/fresh.test`)).text);
    const registered = Date.parse(body.events[0].eventDate);
    assert.equal(NOW - registered, DAY);
  });

  test('host intel lists every site on a shared IP', async () => {
    const body = JSON.parse((await get(`${lab.endpoints.hostintel}shodan/host/198.51.100.9?key=k`)).text);
    assert.deepEqual(body.hostnames, ['fresh.test', 'shared-ip.test']);
    assert.equal(body.org, 'DigitalOcean');
    assert.equal(body.asn, 'AS14061');
  });
});

test('npx preflight lab --sites DIR prints its endpoints as one JSON line and stops on SIGTERM', async () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const child = spawn(process.execPath, ['bin/preflight.js', 'lab', '--sites', SHARED_SITES_DIR], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve) => lines.once('line', resolve));
  const printed = JSON.parse(first);
  for (const key of ['dns', 'http', 'https']) assert.match(printed[key], /^127\.0\.0\.1:\d+$/, key);
  for (const key of ['rdap', 'ct', 'history', 'hostintel'])
    assert.match(printed[key], /^http:\/\/127\.0\.0\.1:\d+\//, key);
  assert.equal(typeof printed.connect_to['harborviewcu.org:443'], 'string');
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  assert.equal(await exit, 0);
});
