import { Resolver } from 'node:dns/promises';
import type { InjectionToken } from 'tsyringe';
import { type CallOptions, failed, found, type Lookup, type LookupFailure, startBudget } from './lookup.ts';
import { cachedLookup, TtlCache } from './ttl-cache.ts';

export type DnsRecordType = 'A' | 'AAAA' | 'CNAME' | 'NS' | 'MX' | 'TXT';

export interface MxRecord {
  exchange: string;
  priority: number;
}

export interface DnsRecordMap {
  A: string[];
  AAAA: string[];
  CNAME: string[];
  NS: string[];
  MX: MxRecord[];
  TXT: string[];
}

export type DnsRecords = Partial<DnsRecordMap>;

export interface DnsReport {
  name: string;
  records: DnsRecords;
  /** Types that could not be answered, with why. NXDOMAIN shows as `not_found` on every type. */
  failures: Partial<Record<DnsRecordType, LookupFailure>>;
}

export interface DnsResolver {
  resolve<T extends DnsRecordType>(name: string, type: T, options?: CallOptions): Promise<Lookup<DnsRecordMap[T]>>;
  /** All six record types in parallel; a type that fails is left out of `records`. */
  resolveAll(name: string, options?: CallOptions): Promise<DnsReport>;
  /** A and AAAA together: what the SSRF guard checks before connecting. */
  addresses(name: string, options?: CallOptions): Promise<Lookup<string[]>>;
}
export const DnsResolver: InjectionToken<DnsResolver> = Symbol('DnsResolver');

export interface DnsResolverOptions {
  /** `ip` or `ip:port` (IPv6 as `[ip]:port`); empty means the system's resolvers. */
  servers?: readonly string[];
  timeoutMs?: number;
  cacheTtlMs?: number;
}

export const ALL_DNS_TYPES: readonly DnsRecordType[] = ['A', 'AAAA', 'CNAME', 'NS', 'MX', 'TXT'];

/** c-ares codes that mean "the name has no such records" rather than "DNS failed". */
const NO_DATA_CODES = new Set(['ENODATA', 'ENONAME']);

async function queryOnce(resolver: Resolver, name: string, type: DnsRecordType): Promise<unknown[]> {
  switch (type) {
    case 'A':
      return await resolver.resolve4(name);
    case 'AAAA':
      return await resolver.resolve6(name);
    case 'CNAME':
      return await resolver.resolveCname(name);
    case 'NS':
      return await resolver.resolveNs(name);
    case 'MX':
      return await resolver.resolveMx(name);
    case 'TXT':
      return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
  }
}

export class NodeDnsResolver implements DnsResolver {
  private readonly cache: TtlCache<unknown[]>;
  private readonly timeoutMs: number;

  constructor(private readonly options: DnsResolverOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 2_000;
    this.cache = new TtlCache(options.cacheTtlMs ?? 60_000);
  }

  async resolve<T extends DnsRecordType>(
    name: string,
    type: T,
    options: CallOptions = {},
  ): Promise<Lookup<DnsRecordMap[T]>> {
    const host = name.toLowerCase().replace(/\.+$/, '');
    if (!host) return failed('not_applicable', 'empty name');
    const result = await cachedLookup(this.cache, `${type} ${host}`, () => this.query(host, type, options));
    return result as Lookup<DnsRecordMap[T]>;
  }

  private async query(host: string, type: DnsRecordType, options: CallOptions): Promise<Lookup<unknown[]>> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    // One Resolver per query: cancel() aborts every query of a Resolver, and a scan's budget is per query.
    const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
    if (this.options.servers?.length) resolver.setServers([...this.options.servers]);
    const budget = startBudget(timeoutMs, options.signal);
    const onAbort = () => resolver.cancel();
    budget.signal.addEventListener('abort', onAbort, { once: true });
    try {
      return found(await queryOnce(resolver, host, type));
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      if (NO_DATA_CODES.has(code)) return found([]);
      if (code === 'ENOTFOUND') return failed('not_found', `NXDOMAIN ${host}`);
      if (budget.signal.aborted) return failed(budget.timedOut() ? 'timeout' : 'aborted', `${type} ${host}`);
      if (code === 'ETIMEOUT') return failed('timeout', `${type} ${host}`);
      if (code === 'ECONNREFUSED') return failed('unreachable', `${type} ${host}`);
      return failed('bad_response', `${code || String(err)} ${type} ${host}`);
    } finally {
      budget.signal.removeEventListener('abort', onAbort);
    }
  }

  async resolveAll(name: string, options: CallOptions = {}): Promise<DnsReport> {
    const report: DnsReport = { name, records: {}, failures: {} };
    const answers = await Promise.all(ALL_DNS_TYPES.map((type) => this.resolve(name, type, options)));
    ALL_DNS_TYPES.forEach((type, index) => {
      const answer = answers[index]!;
      if (answer.ok) (report.records as Record<string, unknown>)[type] = answer.value;
      else report.failures[type] = answer.reason;
    });
    return report;
  }

  async addresses(name: string, options: CallOptions = {}): Promise<Lookup<string[]>> {
    const [v4, v6] = await Promise.all([this.resolve(name, 'A', options), this.resolve(name, 'AAAA', options)]);
    if (!v4.ok && !v6.ok) return v4;
    const all = [...(v4.ok ? v4.value : []), ...(v6.ok ? v6.value : [])];
    return found(all, (v4.ok && v4.cached) || (v6.ok && v6.cached));
  }
}
