import { createHash } from 'node:crypto';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import type { InjectionToken } from 'tsyringe';
import { type GuardedSocketOptions, openGuardedSocket } from '../net/guarded-socket.ts';
import { ageInDays, type CallOptions, failureFrom, found, type Lookup, startBudget } from './lookup.ts';
import { cachedLookup, TtlCache } from './ttl-cache.ts';

export interface CertSummary {
  subject_common_name?: string;
  issuer_common_name?: string;
  issuer_organization?: string;
  fingerprint_sha256: string;
}

export interface TlsFacts {
  host: string;
  port: number;
  /** The checked address the inspector connected to. */
  address: string;
  subject_common_name?: string;
  issuer_common_name?: string;
  issuer_organization?: string;
  sans: string[];
  not_before?: string;
  not_after?: string;
  /** Whole days since notBefore, against the client's clock. */
  cert_age_days?: number;
  /** Lowercase hex sha256 of the leaf's DER. */
  fingerprint_sha256: string;
  /** Leaf first, then the intermediates the server sent. */
  chain: CertSummary[];
  /** Chains to a trusted root and matches the host name. Bad certificates are still inspected. */
  trusted: boolean;
  trust_error?: string;
  protocol?: string;
}

export interface TlsInspector {
  inspect(host: string, options?: CallOptions & { port?: number }): Promise<Lookup<TlsFacts>>;
}
export const TlsInspector: InjectionToken<TlsInspector> = Symbol('TlsInspector');

export interface TlsInspectorOptions {
  guard: GuardedSocketOptions;
  timeoutMs?: number;
  cacheTtlMs?: number;
  now?: () => number;
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function summarise(cert: DetailedPeerCertificate): CertSummary {
  const subjectCn = first(cert.subject?.CN);
  const issuerCn = first(cert.issuer?.CN);
  const issuerO = first(cert.issuer?.O);
  return {
    ...(subjectCn ? { subject_common_name: subjectCn } : {}),
    ...(issuerCn ? { issuer_common_name: issuerCn } : {}),
    ...(issuerO ? { issuer_organization: issuerO } : {}),
    fingerprint_sha256: createHash('sha256').update(cert.raw).digest('hex'),
  };
}

/** `DNS:a.example, IP Address:192.0.2.1` → `['a.example', '192.0.2.1']`. */
function parseSans(subjectaltname: string | undefined): string[] {
  if (!subjectaltname) return [];
  return subjectaltname
    .split(/,\s*/)
    .map((entry) => entry.replace(/^(DNS|IP Address):/, '').trim())
    .filter(Boolean);
}

function peerChain(leaf: DetailedPeerCertificate): CertSummary[] {
  const chain: CertSummary[] = [];
  let current: DetailedPeerCertificate | undefined = leaf;
  const seen = new Set<string>();
  while (current?.raw && chain.length < 10) {
    const summary = summarise(current);
    if (seen.has(summary.fingerprint_sha256)) break;
    seen.add(summary.fingerprint_sha256);
    chain.push(summary);
    current = current.issuerCertificate;
  }
  return chain;
}

export class GuardedTlsInspector implements TlsInspector {
  private readonly cache: TtlCache<Omit<TlsFacts, 'cert_age_days'>>;
  private readonly now: () => number;
  /** Built once: the guard caches its TLS context per options object. Trust is reported, not enforced. */
  private readonly guard: GuardedSocketOptions;

  constructor(private readonly options: TlsInspectorOptions) {
    this.cache = new TtlCache(options.cacheTtlMs ?? 300_000);
    this.now = options.now ?? Date.now;
    this.guard = { ...options.guard, rejectUnauthorized: false };
  }

  async inspect(host: string, options: CallOptions & { port?: number } = {}): Promise<Lookup<TlsFacts>> {
    const port = options.port ?? 443;
    const result = await cachedLookup(this.cache, `${host.toLowerCase()}:${port}`, () =>
      this.handshake(host, port, options),
    );
    if (!result.ok) return result;
    const age = ageInDays(result.value.not_before, this.now());
    return { ...result, value: { ...result.value, ...(age === undefined ? {} : { cert_age_days: age }) } };
  }

  private async handshake(host: string, port: number, options: CallOptions): Promise<Lookup<TlsFacts>> {
    const budget = startBudget(options.timeoutMs ?? this.options.timeoutMs ?? 4_000, options.signal);
    try {
      const { socket, target } = await openGuardedSocket(
        { hostname: host, port, tls: true, signal: budget.signal },
        this.guard,
      );
      const tlsSocket = socket as TLSSocket;
      try {
        const leaf = tlsSocket.getPeerCertificate(true);
        if (!leaf?.raw) return failureFrom(new Error('server presented no certificate'));
        const [summary, ...rest] = peerChain(leaf);
        const protocol = tlsSocket.getProtocol();
        const facts: TlsFacts = {
          host: target.host,
          port,
          address: target.address,
          ...summary!,
          sans: parseSans(leaf.subjectaltname),
          not_before: new Date(leaf.valid_from).toISOString(),
          not_after: new Date(leaf.valid_to).toISOString(),
          chain: [summary!, ...rest],
          trusted: tlsSocket.authorized,
          ...(tlsSocket.authorizationError ? { trust_error: String(tlsSocket.authorizationError) } : {}),
          ...(protocol ? { protocol } : {}),
        };
        return found(facts);
      } finally {
        tlsSocket.destroy();
      }
    } catch (err) {
      return failureFrom(err, budget);
    }
  }
}
