import type { DependencyContainer } from 'tsyringe';
import type { Dispatcher } from 'undici';
import { createGuardedDispatcher } from '../net/guarded-dispatcher.ts';
import type { ResolveHost } from '../net/guarded-target.ts';
import { CrtShClient, CtClient } from './ct-client.ts';
import { DnsResolver, NodeDnsResolver } from './dns-resolver.ts';
import { HistoryClient, WaybackCdxClient } from './history-client.ts';
import { HostIntelClient, ShodanHostIntelClient } from './host-intel-client.ts';
import { HttpFetcher, UndiciHttpFetcher } from './http-fetcher.ts';
import { HttpRdapClient, type RdapBootstrap, RdapClient } from './rdap-client.ts';
import { GuardedTlsInspector, TlsInspector } from './tls-inspector.ts';

export * from './ct-client.ts';
export * from './dns-resolver.ts';
export * from './favicon-hash.ts';
export * from './history-client.ts';
export * from './host-intel-client.ts';
export * from './http-fetcher.ts';
export * from './lookup.ts';
export * from './rdap-client.ts';
export * from './tls-inspector.ts';

export interface SourceTimeouts {
  dns?: number;
  rdap?: number;
  tls?: number;
  /** The whole redirect chain plus favicon. */
  http?: number;
  ct?: number;
  history?: number;
  hostIntel?: number;
  /** TCP/TLS connect, for every guarded connection. */
  connect?: number;
}

export interface SourcesConfig {
  /** `ip[:port]` DNS servers (the lab's `127.0.0.1:P`); empty = the system's resolvers. */
  dnsServers?: string[];
  baseUrls?: {
    /** Every TLD goes to this RDAP server; unset = the shipped IANA bootstrap. */
    rdap?: string;
    /** Default `https://crt.sh/`. */
    ct?: string;
    /** Default `https://web.archive.org/`. */
    history?: string;
    /** Default `https://api.shodan.io/`. */
    hostIntel?: string;
  };
  timeoutsMs?: SourceTimeouts;
  /** Lab mode: `host:port` → `127.0.0.1:labPort` for site traffic (pages, TLS). Nothing else reaches loopback. */
  connectTo?: Record<string, string>;
  /** `ip:port` endpoints the source clients (RDAP, CT, history, host intel) may reach although they are loopback. */
  allowLoopback?: string[];
  /** Host-intelligence vendor key; without it no lookup is made (`queried_vendor: false`). */
  hostIntelKey?: string;
  /** Extra trusted roots (the lab CA). */
  caPem?: string | string[];
  rdapBootstrap?: RdapBootstrap;
  http?: { maxHops?: number; maxBodyBytes?: number; userAgent?: string; rejectUnauthorized?: boolean };
  /** 0 disables caching (tests). */
  cacheTtlMs?: number;
  now?: () => number;
}

export interface SourceSet {
  dns: DnsResolver;
  rdap: RdapClient;
  tls: TlsInspector;
  http: HttpFetcher;
  ct: CtClient;
  history: HistoryClient;
  hostIntel: HostIntelClient;
  /** Guarded dispatchers, for code that needs raw HTTP with the same rules. Closed by `close()`. */
  dispatchers: { site: Dispatcher; api: Dispatcher; feeds: Dispatcher };
  close(): Promise<void>;
}

/** Build every source client from config; each outbound connection goes through the SSRF guard. */
export function createSources(config: SourcesConfig = {}): SourceSet {
  const timeouts = config.timeoutsMs ?? {};
  const ttl = (fallback: number) => config.cacheTtlMs ?? fallback;
  const dns = new NodeDnsResolver({ servers: config.dnsServers, timeoutMs: timeouts.dns, cacheTtlMs: ttl(60_000) });

  // Site names resolve through the configured DNS (the lab's in lab mode), then every answer is checked.
  const resolveHost: ResolveHost | undefined = config.dnsServers?.length
    ? async (host, signal) => {
        const answer = await dns.addresses(host, { signal });
        if (!answer.ok)
          throw Object.assign(new Error(`${answer.reason}: ${answer.detail ?? host}`), { code: 'ENOTFOUND' });
        return answer.value;
      }
    : undefined;
  // A connect can never usefully outlast the budget of the fetch it serves.
  const siteGuard = {
    connectTo: config.connectTo,
    resolveHost,
    ca: config.caPem,
    connectTimeoutMs: timeouts.connect ?? Math.min(5_000, Math.max(timeouts.http ?? 5_000, timeouts.tls ?? 5_000)),
  };
  const site = createGuardedDispatcher({ ...siteGuard, rejectUnauthorized: config.http?.rejectUnauthorized ?? false });
  // Feeds are trusted input (a known-good feed adds to the allow-list): same guard as sites, certificates checked.
  const feeds = createGuardedDispatcher({ ...siteGuard, rejectUnauthorized: true });
  const api = createGuardedDispatcher({
    allowEndpoints: config.allowLoopback,
    ca: config.caPem,
    connectTimeoutMs:
      timeouts.connect ??
      Math.min(
        5_000,
        Math.max(timeouts.rdap ?? 5_000, timeouts.ct ?? 5_000, timeouts.history ?? 5_000, timeouts.hostIntel ?? 5_000),
      ),
  });
  const now = config.now;
  const urls = config.baseUrls ?? {};

  return {
    dns,
    rdap: new HttpRdapClient({
      dispatcher: api,
      bootstrap: config.rdapBootstrap,
      baseUrlForAll: urls.rdap,
      timeoutMs: timeouts.rdap,
      cacheTtlMs: ttl(3_600_000),
      now,
    }),
    tls: new GuardedTlsInspector({ guard: siteGuard, timeoutMs: timeouts.tls, cacheTtlMs: ttl(300_000), now }),
    http: new UndiciHttpFetcher({
      dispatcher: site,
      timeoutMs: timeouts.http,
      maxHops: config.http?.maxHops,
      maxBodyBytes: config.http?.maxBodyBytes,
      userAgent: config.http?.userAgent,
      cacheTtlMs: ttl(60_000),
    }),
    ct: new CrtShClient({
      dispatcher: api,
      baseUrl: urls.ct ?? 'https://crt.sh/',
      timeoutMs: timeouts.ct,
      cacheTtlMs: ttl(600_000),
      now,
    }),
    history: new WaybackCdxClient({
      dispatcher: api,
      baseUrl: urls.history ?? 'https://web.archive.org/',
      timeoutMs: timeouts.history,
      cacheTtlMs: ttl(3_600_000),
      now,
    }),
    hostIntel: new ShodanHostIntelClient({
      dispatcher: api,
      baseUrl: urls.hostIntel ?? 'https://api.shodan.io/',
      apiKey: config.hostIntelKey,
      timeoutMs: timeouts.hostIntel,
      cacheTtlMs: ttl(3_600_000),
    }),
    dispatchers: { site, api, feeds },
    close: async () => {
      // Shutting down: drop in-flight lookups rather than wait for them.
      await Promise.all([site.destroy(), api.destroy(), feeds.destroy()]);
    },
  };
}

/**
 * Register the real source clients into the app's (child) container. Returns the set so the owner can `close()` it
 * on shutdown.
 */
export function registerSources(container: DependencyContainer, config: SourcesConfig = {}): SourceSet {
  const sources = createSources(config);
  container.register(DnsResolver, { useValue: sources.dns });
  container.register(RdapClient, { useValue: sources.rdap });
  container.register(TlsInspector, { useValue: sources.tls });
  container.register(HttpFetcher, { useValue: sources.http });
  container.register(CtClient, { useValue: sources.ct });
  container.register(HistoryClient, { useValue: sources.history });
  container.register(HostIntelClient, { useValue: sources.hostIntel });
  return sources;
}
