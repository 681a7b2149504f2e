import type { SourcesConfig } from '../core/evidence/sources/index.ts';
import { startApiServers } from './api-servers.ts';
import { startDnsServer } from './dns-server.ts';
import { LabPki, type PemPair } from './pki.ts';
import { type LabSite, loadSites } from './site-model.ts';
import { SiteDirectory } from './site-responder.ts';
import { startWebServers } from './web-servers.ts';

export type { LabSite, SiteJson } from './site-model.ts';

export interface LabOptions {
  sitesDir: string;
  /** Only loopback makes sense; kept as an option for IPv6 (`::1`). */
  host?: '127.0.0.1' | '::1';
  /** The lab's clock: every `*_days_ago` is relative to it. Default: the time of the call. */
  now?: Date | number;
}

export interface LabEndpoints {
  /** UDP `127.0.0.1:P` (for `Resolver.setServers`). */
  dns: string;
  /** `127.0.0.1:P`, routes by Host header. */
  http: string;
  /** `127.0.0.1:P`, chooses the certificate by SNI. */
  https: string;
  /** RDAP base URL (`…/domain/NAME`). */
  rdap: string;
  /** crt.sh-shaped base URL (`…?q=NAME&output=json`). */
  ct: string;
  /** Wayback-shaped base URL (`…cdx/search/cdx?url=NAME&output=json`). */
  history: string;
  /** Shodan-shaped base URL (`…shodan/host/IP?key=K`). */
  hostintel: string;
}

export interface Lab {
  endpoints: LabEndpoints;
  /** The lab root CA; clients trust it in lab mode. */
  caPem: string;
  /** The lab's clock at start, in ms. */
  now: number;
  sites: readonly LabSite[];
  /** `host:port` → `127.0.0.1:labPort` for every site (and its `www.`) on 80 and 443, like curl's --connect-to. */
  connectTo: Record<string, string>;
  connectToFor(host: string, port: number): string | undefined;
  /** `127.0.0.1:P` of the lab's API servers: what a guard must let the source clients reach. */
  apiEndpoints: string[];
  /** Source-client config pointing every client at this lab. `hostIntelKey` defaults to a lab key. */
  sourcesConfig(overrides?: Partial<SourcesConfig>): SourcesConfig;
  /** Wall time of startLab, in ms. */
  startupMs: number;
  /** Where start-up time went: reading sites + generating the CA keys, then signing every site certificate. */
  startupPhasesMs: { keysAndSites: number; certificates: number };
  close(): Promise<void>;
}

function hostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

export async function startLab(options: LabOptions): Promise<Lab> {
  const started = performance.now();
  const host = options.host ?? '127.0.0.1';
  const now = options.now === undefined ? Date.now() : new Date(options.now).getTime();
  const [sites, pki] = await Promise.all([loadSites(options.sitesDir, now), LabPki.create(now)]);
  const keysAndSitesMs = performance.now() - started;
  const directory = new SiteDirectory(sites);

  // All certificates in parallel; ECDSA signing is about a millisecond each.
  const certificates = new Map<string, Promise<PemPair>>(sites.map((site) => [site.hostname, pki.leaf(site.cert)]));
  await Promise.all(certificates.values());
  const certificatesMs = performance.now() - started - keysAndSitesMs;

  const [dns, web, apis] = await Promise.all([
    startDnsServer(sites, host),
    startWebServers(directory, certificates, pki, host),
    startApiServers(sites, host, now),
  ]);

  const connectTo: Record<string, string> = {};
  for (const site of sites) {
    const names = site.ipLiteral ? [site.hostname] : [site.hostname, `www.${site.hostname}`];
    for (const name of names) {
      connectTo[hostPort(name, 80)] = web.http;
      connectTo[hostPort(name, 443)] = web.ipLiteralHttps.get(site.hostname) ?? web.https;
    }
  }
  const endpoints: LabEndpoints = {
    dns: dns.endpoint,
    http: web.http,
    https: web.https,
    rdap: `http://${apis.rdap}/`,
    ct: `http://${apis.ct}/`,
    history: `http://${apis.history}/`,
    hostintel: `http://${apis.hostintel}/`,
  };
  const apiEndpoints = [apis.rdap, apis.ct, apis.history, apis.hostintel];

  let closing: Promise<void> | undefined;
  return {
    endpoints,
    caPem: pki.rootPem,
    now,
    sites,
    connectTo,
    connectToFor: (name, port) => connectTo[hostPort(name.toLowerCase().replace(/\.+$/, ''), port)],
    apiEndpoints,
    sourcesConfig: (overrides = {}) => ({
      dnsServers: [endpoints.dns],
      baseUrls: { rdap: endpoints.rdap, ct: endpoints.ct, history: endpoints.history, hostIntel: endpoints.hostintel },
      connectTo: { ...connectTo },
      allowLoopback: [...apiEndpoints],
      caPem: pki.rootPem,
      hostIntelKey: 'lab-key',
      ...overrides,
    }),
    startupMs: performance.now() - started,
    startupPhasesMs: { keysAndSites: keysAndSitesMs, certificates: certificatesMs },
    // Idempotent: the lab may be closed by a test that stops it early and again by its owner.
    close: () => {
      closing ??= Promise.all([dns.close(), web.close(), apis.close()]).then(() => undefined);
      return closing;
    },
  };
}
