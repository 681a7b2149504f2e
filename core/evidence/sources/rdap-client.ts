import { getDomain } from 'tldts';
import type { InjectionToken } from 'tsyringe';
import type { Dispatcher } from 'undici';
import { canonicalIp } from '../net/address-policy.ts';
import { httpGetJson } from './http-json.ts';
import { ageInDays, type CallOptions, failed, failureFrom, found, type Lookup, startBudget } from './lookup.ts';
import shippedBootstrap from './rdap-bootstrap.json' with { type: 'json' };
import { cachedLookup, TtlCache } from './ttl-cache.ts';

export interface RdapDomain {
  /** The registered domain that was looked up (RDAP knows registrations, not every host name). */
  domain: string;
  ldh_name?: string;
  registered?: string;
  expires?: string;
  last_changed?: string;
  /** Whole days since registration, against the client's clock. */
  age_days?: number;
  registrar?: string;
  status: string[];
  nameservers: string[];
  source_url: string;
}

export interface RdapClient {
  /** Accepts a host name; looks up its registrable domain. IP literals are `not_applicable`. */
  lookupDomain(host: string, options?: CallOptions): Promise<Lookup<RdapDomain>>;
}
export const RdapClient: InjectionToken<RdapClient> = Symbol('RdapClient');

/** The IANA bootstrap file's shape: `services` is a list of `[tlds, baseUrls]`. */
export interface RdapBootstrap {
  services: [string[], string[]][];
}

export interface RdapClientOptions {
  dispatcher: Dispatcher;
  bootstrap?: RdapBootstrap;
  /** Every TLD goes here (lab mode). */
  baseUrlForAll?: string;
  timeoutMs?: number;
  cacheTtlMs?: number;
  now?: () => number;
}

interface RdapEvent {
  eventAction?: string;
  eventDate?: string;
}
interface RdapEntity {
  roles?: string[];
  vcardArray?: [string, [string, unknown, string, unknown][]];
}
interface RdapDomainObject {
  objectClassName?: string;
  ldhName?: string;
  events?: RdapEvent[];
  entities?: RdapEntity[];
  status?: string[];
  nameservers?: { ldhName?: string }[];
}

function baseUrlsByTld(bootstrap: RdapBootstrap): Map<string, string> {
  const map = new Map<string, string>();
  for (const [tlds, urls] of bootstrap.services) {
    const https = urls.find((url) => url.startsWith('https:')) ?? urls[0];
    if (https) for (const tld of tlds) map.set(tld.toLowerCase(), https.endsWith('/') ? https : `${https}/`);
  }
  return map;
}

function eventDate(events: RdapEvent[] | undefined, action: string): string | undefined {
  return events?.find((event) => event.eventAction === action)?.eventDate;
}

function registrarName(entities: RdapEntity[] | undefined): string | undefined {
  const registrar = entities?.find((entity) => entity.roles?.includes('registrar'));
  const fn = registrar?.vcardArray?.[1]?.find((property) => property[0] === 'fn');
  return typeof fn?.[3] === 'string' ? fn[3] : undefined;
}

export class HttpRdapClient implements RdapClient {
  private readonly cache: TtlCache<RdapDomain>;
  private readonly baseUrls: Map<string, string>;
  private readonly now: () => number;

  constructor(private readonly options: RdapClientOptions) {
    this.cache = new TtlCache(options.cacheTtlMs ?? 3_600_000);
    this.baseUrls = baseUrlsByTld(options.bootstrap ?? (shippedBootstrap as unknown as RdapBootstrap));
    this.now = options.now ?? Date.now;
  }

  async lookupDomain(host: string, options: CallOptions = {}): Promise<Lookup<RdapDomain>> {
    const name = host.toLowerCase().replace(/\.+$/, '');
    if (canonicalIp(name)) return failed('not_applicable', 'IP literal has no domain registration');
    const domain = getDomain(name);
    if (!domain) return failed('not_applicable', `no registrable domain in ${name}`);
    const tld = domain.slice(domain.lastIndexOf('.') + 1);
    const base = this.options.baseUrlForAll ?? this.baseUrls.get(tld);
    if (!base) return failed('not_configured', `no RDAP service for .${tld}`);
    const cached = await cachedLookup(this.cache, domain, () => this.fetch(domain, base, options));
    if (!cached.ok) return cached;
    // Age is relative to now, not to when the answer was cached.
    const age_days = ageInDays(cached.value.registered, this.now());
    return { ...cached, value: { ...cached.value, ...(age_days === undefined ? {} : { age_days }) } };
  }

  private async fetch(domain: string, base: string, options: CallOptions): Promise<Lookup<RdapDomain>> {
    const url = new URL(`domain/${encodeURIComponent(domain)}`, base.endsWith('/') ? base : `${base}/`);
    const budget = startBudget(options.timeoutMs ?? this.options.timeoutMs ?? 4_000, options.signal);
    try {
      const body = (await httpGetJson(url, {
        dispatcher: this.options.dispatcher,
        signal: budget.signal,
        maxBytes: 512 * 1024,
        headers: { accept: 'application/rdap+json, application/json' },
      })) as RdapDomainObject | undefined;
      if (!body) return failed('not_found', `RDAP has no ${domain}`);
      if (body.objectClassName !== 'domain') return failed('bad_response', 'not an RDAP domain object');
      const registered = eventDate(body.events, 'registration');
      const expires = eventDate(body.events, 'expiration');
      const lastChanged = eventDate(body.events, 'last changed');
      const registrar = registrarName(body.entities);
      return found({
        domain,
        ...(body.ldhName ? { ldh_name: body.ldhName } : {}),
        ...(registered ? { registered } : {}),
        ...(expires ? { expires } : {}),
        ...(lastChanged ? { last_changed: lastChanged } : {}),
        ...(registrar ? { registrar } : {}),
        status: body.status ?? [],
        nameservers: (body.nameservers ?? []).flatMap((ns) => (ns.ldhName ? [ns.ldhName.toLowerCase()] : [])),
        source_url: url.href,
      });
    } catch (err) {
      return failureFrom(err, budget);
    }
  }
}
