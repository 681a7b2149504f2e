import 'reflect-metadata';
import assert from 'node:assert/strict';
import { isIP } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createSources, type SourceSet } from '../../core/evidence/sources/index.ts';
import { type Lab, startLab } from '../../lab/index.ts';
import { readSharedSites, SHARED_SITES_DIR } from '../lab/lab-fixtures.ts';

// The lab runs on an injected clock; clients read theirs an hour later, as a scan would. It stays near real time
// because OpenSSL checks certificate validity against the real clock.
const LAB_NOW = Date.now() - 3_600_000;
const CLIENT_NOW = LAB_NOW + 3_600_000;

// DESIGN §7 defaults for a site without site.json (documented in lab/README.md).
const DEFAULT_REGISTERED_DAYS = 3650;
const DEFAULT_CERT_DAYS = 330;
const DEFAULT_ISSUER = { cn: 'DigiCert Global G2 TLS RSA SHA256 2020 CA1', o: 'DigiCert Inc' };

/** Redirect kinds each shared site's `/` goes through, read from its site.json and pages. */
const EXPECTED_HOP_KINDS: Record<string, string[]> = {
  'login-microsoftonline-secure.com': ['initial', 'http'],
  'accounts.google.com': ['initial', 'http'],
  // Its JS redirect points back at itself; the fetcher records it once and stops on the loop.
  'session-verify-gateway.xyz': ['initial', 'js'],
};

const sites = await readSharedSites();
let lab: Lab;
let sources: SourceSet;

before(async () => {
  lab = await startLab({ sitesDir: SHARED_SITES_DIR, now: LAB_NOW });
  sources = createSources(lab.sourcesConfig({ cacheTtlMs: 0, now: () => CLIENT_NOW }));
});
after(async () => {
  await sources.close();
  await lab.close();
});

test('the table covers every site folder', () => {
  assert.ok(sites.length >= 14);
  assert.deepEqual(lab.sites.map((s) => s.hostname).sort(), sites.map((s) => s.hostname).sort());
});

for (const { hostname, json } of sites) {
  const ipLiteral = isIP(hostname) !== 0;

  describe(hostname, () => {
    // An IP-literal site has no name to resolve; its address facts are checked by the host-intel test.
    if (!ipLiteral) {
      test('DNS answers the site with its declared (or documentation-range) address', async () => {
        const answer = await sources.dns.resolve(hostname, 'A');
        assert.ok(answer.ok, JSON.stringify(answer));
        if (json.ip) assert.deepEqual(answer.value, [json.ip]);
        else assert.match(answer.value[0] ?? '', /^203\.0\.113\.\d+$/);
      });
    }

    test('RDAP gives the registration age', async () => {
      const answer = await sources.rdap.lookupDomain(hostname);
      if (ipLiteral) {
        assert.deepEqual(answer.ok ? 'ok' : answer.reason, 'not_applicable');
        return;
      }
      assert.ok(answer.ok, JSON.stringify(answer));
      assert.equal(answer.value.age_days, json.registered_days_ago ?? DEFAULT_REGISTERED_DAYS);
      assert.ok(answer.value.expires && Date.parse(answer.value.expires) > CLIENT_NOW);
      assert.equal(answer.value.registrar, 'Preflight Lab Registrar, Inc.');
    });

    test('TLS shows the declared issuer, SANs and certificate age', async () => {
      const answer = await sources.tls.inspect(hostname);
      assert.ok(answer.ok, JSON.stringify(answer));
      const facts = answer.value;
      assert.equal(facts.issuer_common_name, json.cert?.issuer ?? DEFAULT_ISSUER.cn);
      if (json.cert?.issuer_org || !json.cert)
        assert.equal(facts.issuer_organization, json.cert?.issuer_org ?? DEFAULT_ISSUER.o);
      const defaultSans = ipLiteral ? [hostname] : [hostname, `www.${hostname}`];
      assert.deepEqual(facts.sans, json.cert?.sans ?? defaultSans);
      assert.equal(facts.cert_age_days, json.cert?.issued_days_ago ?? DEFAULT_CERT_DAYS);
      assert.match(facts.fingerprint_sha256, /^[0-9a-f]{64}$/);
      const selfSigned = json.cert?.issuer === (json.cert?.sans?.[0] ?? hostname);
      assert.equal(facts.trusted, !selfSigned, facts.trust_error);
    });

    test('CT lists the declared entries and the site certificate', async () => {
      const answer = await sources.ct.search(hostname);
      assert.ok(answer.ok, JSON.stringify(answer));
      const entries = answer.value;
      for (const declared of json.ct ?? []) {
        assert.ok(
          entries.some(
            (e) =>
              e.names.includes(declared.name) &&
              e.age_days === declared.issued_days_ago &&
              e.issuer_common_name === declared.issuer,
          ),
          `missing CT entry ${JSON.stringify(declared)}`,
        );
      }
      const certDays = json.cert?.issued_days_ago ?? DEFAULT_CERT_DAYS;
      const certIssuer = json.cert?.issuer ?? DEFAULT_ISSUER.cn;
      assert.ok(
        entries.some((e) => e.age_days === certDays && e.issuer_common_name === certIssuer),
        'site certificate not in CT',
      );
      const tls = await sources.tls.inspect(hostname);
      assert.ok(tls.ok);
      assert.equal(entries.filter((e) => e.age_days === certDays && e.issuer_common_name === certIssuer).length, 1);
      // Newest first, as the client promises.
      assert.deepEqual(
        entries.map((e) => e.age_days),
        [...entries.map((e) => e.age_days)].sort((a = 0, b = 0) => a - b),
      );
    });

    test('history returns the declared captures', async () => {
      const answer = await sources.history.captures(hostname);
      assert.ok(answer.ok, JSON.stringify(answer));
      const ages = answer.value.map((c) => c.age_days);
      if (json.history?.captures_days_ago) {
        assert.deepEqual(
          ages,
          [...json.history.captures_days_ago].sort((a, b) => b - a),
        );
      } else {
        assert.ok(ages.length >= 3 && (ages[0] ?? 0) >= 1000, `expected a long default history, got ${ages}`);
      }
    });

    test('host intelligence reports the declared hosting', async () => {
      const ip = json.ip ?? (ipLiteral ? hostname : undefined);
      const address = ip ?? (await sources.dns.addresses(hostname));
      const lookupIp = typeof address === 'string' ? address : address.ok ? address.value[0]! : '';
      const answer = await sources.hostIntel.lookup(lookupIp);
      assert.equal(answer.queried_vendor, true);
      assert.ok(answer.ok, JSON.stringify(answer));
      assert.equal(answer.value.org, json.hosting_provider ?? 'Lab Default Hosting');
      assert.equal(answer.value.asn_number, json.asn ?? 64500);
      if (!ipLiteral) assert.ok(answer.value.hostnames.includes(hostname));
    });

    test('the fetcher records the redirect hops and headers', async () => {
      const result = await sources.http.fetchPage(`https://${hostname}/`);
      assert.equal(result.error, undefined, JSON.stringify(result.error));
      assert.deepEqual(
        result.hops.map((h) => h.kind),
        EXPECTED_HOP_KINDS[hostname] ?? ['initial'],
      );
      const declared = json.redirects?.['/'];
      if (declared) {
        assert.deepEqual(result.hops[0]!.redirect, { kind: 'http', to: declared.to, status: declared.status ?? 302 });
        assert.equal(result.final_url, declared.to);
      }
      assert.equal(result.final?.status, 200);
      for (const [name, value] of Object.entries(json.headers ?? {})) {
        assert.equal(result.hops[0]!.headers[name.toLowerCase()], value);
      }
    });
  });
}
