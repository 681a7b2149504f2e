import 'reflect-metadata';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createSources, type SourceSet, type SourcesConfig } from '../../core/evidence/sources/index.ts';
import { type Lab, startLab } from '../../lab/index.ts';
import {
  closedPort,
  elapsed,
  SHARED_SITES_DIR,
  startSilentTcpServer,
  startSilentUdpServer,
} from '../lab/lab-fixtures.ts';

const BUDGET = 200;
// Generous: the point is "finishes near its budget", not a benchmark.
const LIMIT = BUDGET * 5;
const SITE = 'docview-secure-login.top';

let lab: Lab;
let silentTcp: Awaited<ReturnType<typeof startSilentTcpServer>>;
let silentUdp: Awaited<ReturnType<typeof startSilentUdpServer>>;
let refusedPort: number;

before(async () => {
  [lab, silentTcp, silentUdp, refusedPort] = await Promise.all([
    startLab({ sitesDir: SHARED_SITES_DIR }),
    startSilentTcpServer(),
    startSilentUdpServer(),
    closedPort(),
  ]);
});
after(async () => {
  await Promise.all([lab.close(), silentTcp.close(), silentUdp.close()]);
});

/**
 * Every source pointed at one broken endpoint, everything else at the lab. A refusal arrives at once, but on a
 * loaded machine the event loop may see a short budget expire first and report `timeout`; refusals therefore get a
 * budget ten times longer, so the test sees the refusal itself (and still asserts the call ends well inside it).
 */
function brokenSources(endpoint: string, dnsEndpoint: string, budget = BUDGET): SourceSet {
  const base = `http://${endpoint}/`;
  const connectTo = Object.fromEntries(Object.keys(lab.connectTo).map((key) => [key, endpoint]));
  const config: SourcesConfig = lab.sourcesConfig({
    dnsServers: [dnsEndpoint],
    baseUrls: { rdap: base, ct: base, history: base, hostIntel: base },
    connectTo,
    allowLoopback: [endpoint],
    cacheTtlMs: 0,
    timeoutsMs: {
      // A refused UDP query may surface only as a timeout (c-ares), so DNS keeps the short budget.
      dns: BUDGET,
      rdap: budget,
      tls: budget,
      http: budget,
      ct: budget,
      history: budget,
      hostIntel: budget,
    },
  });
  return createSources(config);
}

for (const kind of ['hangs', 'refuses'] as const) {
  describe(`a source that ${kind}`, () => {
    let sources: SourceSet;
    const expected = kind === 'hangs' ? 'timeout' : 'unreachable';
    before(() => {
      const endpoint = kind === 'hangs' ? silentTcp.endpoint : `127.0.0.1:${refusedPort}`;
      // A refused UDP port answers with ICMP; c-ares may report that as a refusal or a timeout.
      sources =
        kind === 'hangs'
          ? brokenSources(endpoint, silentUdp.endpoint)
          : brokenSources(endpoint, `127.0.0.1:${refusedPort}`, BUDGET * 10);
    });
    after(() => sources.close());

    test('DNS leaves the records out with a reason', async () => {
      const { value, ms } = await elapsed(() => sources.dns.resolveAll(SITE));
      assert.deepEqual(value.records, {});
      for (const reason of Object.values(value.failures)) assert.ok(['timeout', 'unreachable'].includes(reason));
      if (kind === 'hangs') assert.deepEqual(new Set(Object.values(value.failures)), new Set(['timeout']));
      assert.ok(ms < LIMIT, `${ms} ms`);
    });

    test('RDAP omits the age', async () => {
      const { value, ms } = await elapsed(() => sources.rdap.lookupDomain(SITE));
      assert.deepEqual(value.ok ? 'ok' : value.reason, expected);
      assert.ok(ms < LIMIT, `${ms} ms`);
    });

    test('TLS omits the certificate facts', async () => {
      const { value, ms } = await elapsed(() => sources.tls.inspect(SITE));
      assert.deepEqual(value.ok ? 'ok' : value.reason, expected);
      assert.ok(ms < LIMIT, `${ms} ms`);
    });

    test('the fetcher returns no hops and an error reason', async () => {
      const { value, ms } = await elapsed(() => sources.http.fetchPage(`https://${SITE}/`));
      assert.equal(value.hops.length, 0);
      assert.equal(value.final, undefined);
      assert.equal(value.error?.reason, expected);
      assert.ok(ms < LIMIT, `${ms} ms`);
    });

    test('CT, history and host intelligence omit their fields', async () => {
      const { value, ms } = await elapsed(() =>
        Promise.all([
          sources.ct.search(SITE),
          sources.history.captures(SITE),
          sources.hostIntel.lookup('203.0.113.77'),
        ]),
      );
      assert.deepEqual(
        value.map((v) => (v.ok ? 'ok' : v.reason)),
        [expected, expected, expected],
      );
      assert.ok(ms < LIMIT, `${ms} ms`);
    });
  });
}

test('a hanging source answers the caller as soon as the scan aborts', async () => {
  const sources = brokenSources(silentTcp.endpoint, silentUdp.endpoint);
  try {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const { value, ms } = await elapsed(() =>
      sources.ct.search(SITE, { signal: controller.signal, timeoutMs: 10_000 }),
    );
    assert.deepEqual(value.ok ? 'ok' : value.reason, 'aborted');
    assert.ok(ms < 1_000, `${ms} ms`);
  } finally {
    await sources.close();
  }
});

test('a page that sends headers and then stalls its body still ends within budget', async () => {
  const { createServer } = await import('node:http');
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write('<html><body>partial');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `127.0.0.1:${(server.address() as { port: number }).port}`;
  const sources = createSources({
    connectTo: { 'slow.example:80': endpoint },
    timeoutsMs: { http: BUDGET },
    cacheTtlMs: 0,
  });
  try {
    const { value, ms } = await elapsed(() => sources.http.fetchPage('http://slow.example/'));
    assert.equal(value.error?.reason, 'timeout');
    assert.ok(ms < LIMIT, `${ms} ms`);
  } finally {
    await sources.close();
    server.closeAllConnections();
    server.close();
  }
});

test('without a vendor key no host-intelligence request is made', async () => {
  const sources = createSources({
    baseUrls: { hostIntel: `http://${silentTcp.endpoint}/` },
    allowLoopback: [silentTcp.endpoint],
    cacheTtlMs: 0,
  });
  const before = silentTcp.connections();
  try {
    const answer = await sources.hostIntel.lookup('203.0.113.77');
    assert.equal(answer.queried_vendor, false);
    assert.deepEqual(answer.ok ? 'ok' : answer.reason, 'not_configured');
    assert.equal(silentTcp.connections(), before);
  } finally {
    await sources.close();
  }
});
