import type { InjectionToken } from 'tsyringe';
import type { Dispatcher } from 'undici';
import { canonicalIp } from '../net/address-policy.ts';
import { httpGetJson } from './http-json.ts';
import { type CallOptions, failed, failureFrom, found, type Lookup, startBudget } from './lookup.ts';
import { cachedLookup, TtlCache } from './ttl-cache.ts';

export interface HostService {
  port: number;
  transport: string;
  product?: string;
  module?: string;
}

export interface HostFacts {
  ip: string;
  org?: string;
  isp?: string;
  /** As the vendor writes it, e.g. `AS14061`. */
  asn?: string;
  asn_number?: number;
  hostnames: string[];
  domains: string[];
  ports: number[];
  services: HostService[];
  country_code?: string;
  last_update?: string;
}

/** `queried_vendor: false` means no vendor key is configured and no request was made. */
export type HostIntelResult = Lookup<HostFacts> & { queried_vendor: boolean; vendor: string };

export interface HostIntelClient {
  lookup(ip: string, options?: CallOptions): Promise<HostIntelResult>;
}
export const HostIntelClient: InjectionToken<HostIntelClient> = Symbol('HostIntelClient');

export interface HostIntelClientOptions {
  dispatcher: Dispatcher;
  /** Shodan's API root, e.g. `https://api.shodan.io/`. */
  baseUrl: string;
  apiKey?: string;
  timeoutMs?: number;
  cacheTtlMs?: number;
}

interface ShodanHost {
  ip_str?: string;
  org?: string;
  isp?: string;
  asn?: string;
  hostnames?: string[];
  domains?: string[];
  ports?: number[];
  country_code?: string;
  last_update?: string;
  data?: { port?: number; transport?: string; product?: string; _shodan?: { module?: string } }[];
}

const VENDOR = 'shodan';

export class ShodanHostIntelClient implements HostIntelClient {
  private readonly cache: TtlCache<HostFacts>;

  constructor(private readonly options: HostIntelClientOptions) {
    this.cache = new TtlCache(options.cacheTtlMs ?? 3_600_000);
  }

  async lookup(ip: string, options: CallOptions = {}): Promise<HostIntelResult> {
    if (!this.options.apiKey) {
      return {
        ...failed<HostFacts>('not_configured', 'no host-intelligence key'),
        queried_vendor: false,
        vendor: VENDOR,
      };
    }
    const address = canonicalIp(ip);
    if (!address)
      return { ...failed<HostFacts>('not_applicable', `not an IP: ${ip}`), queried_vendor: false, vendor: VENDOR };
    const result = await cachedLookup(this.cache, address, () => this.fetch(address, this.options.apiKey!, options));
    return { ...result, queried_vendor: true, vendor: VENDOR };
  }

  private async fetch(ip: string, key: string, options: CallOptions): Promise<Lookup<HostFacts>> {
    const base = this.options.baseUrl.endsWith('/') ? this.options.baseUrl : `${this.options.baseUrl}/`;
    const url = new URL(`shodan/host/${encodeURIComponent(ip)}`, base);
    url.searchParams.set('key', key);
    const budget = startBudget(options.timeoutMs ?? this.options.timeoutMs ?? 4_000, options.signal);
    try {
      const body = (await httpGetJson(url, {
        dispatcher: this.options.dispatcher,
        signal: budget.signal,
        maxBytes: 2 * 1024 * 1024,
      })) as ShodanHost | undefined;
      if (!body) return failed('not_found', `no host record for ${ip}`);
      if (typeof body !== 'object' || Array.isArray(body))
        return failed('bad_response', 'host answer is not an object');
      const asnNumber = body.asn ? Number(body.asn.replace(/^AS/i, '')) : Number.NaN;
      const services = (body.data ?? []).flatMap((banner) =>
        typeof banner.port === 'number'
          ? [
              {
                port: banner.port,
                transport: banner.transport ?? 'tcp',
                ...(banner.product ? { product: banner.product } : {}),
                ...(banner._shodan?.module ? { module: banner._shodan.module } : {}),
              },
            ]
          : [],
      );
      return found({
        ip: body.ip_str ?? ip,
        ...(body.org ? { org: body.org } : {}),
        ...(body.isp ? { isp: body.isp } : {}),
        ...(body.asn ? { asn: body.asn } : {}),
        ...(Number.isFinite(asnNumber) ? { asn_number: asnNumber } : {}),
        hostnames: body.hostnames ?? [],
        domains: body.domains ?? [],
        ports: [...(body.ports ?? [])].sort((a, b) => a - b),
        services,
        ...(body.country_code ? { country_code: body.country_code } : {}),
        ...(body.last_update ? { last_update: body.last_update } : {}),
      });
    } catch (err) {
      return failureFrom(err, budget);
    }
  }
}
