import type { InjectionToken } from 'tsyringe';
import type { Dispatcher } from 'undici';
import { httpGetJson } from './http-json.ts';
import { ageInDays, type CallOptions, failed, failureFrom, found, type Lookup, startBudget } from './lookup.ts';
import { cachedLookup, TtlCache } from './ttl-cache.ts';

export interface CtEntry {
  id: number;
  issuer_name: string;
  issuer_common_name?: string;
  issuer_organization?: string;
  common_name: string;
  /** `name_value` split on newlines: every name on the certificate. */
  names: string[];
  entry_timestamp: string;
  not_before: string;
  not_after: string;
  serial_number: string;
  /** Whole days since notBefore, against the client's clock. */
  age_days?: number;
}

export interface CtClient {
  /** Certificates logged for a domain, newest first (crt.sh `?q=DOMAIN&output=json`). */
  search(domain: string, options?: CallOptions): Promise<Lookup<CtEntry[]>>;
}
export const CtClient: InjectionToken<CtClient> = Symbol('CtClient');

export interface CtClientOptions {
  dispatcher: Dispatcher;
  /** crt.sh's root, e.g. `https://crt.sh/`. */
  baseUrl: string;
  timeoutMs?: number;
  cacheTtlMs?: number;
  maxBytes?: number;
  now?: () => number;
}

interface CrtShRow {
  issuer_name?: string;
  common_name?: string;
  name_value?: string;
  id?: number;
  entry_timestamp?: string;
  not_before?: string;
  not_after?: string;
  serial_number?: string;
}

/** `C=US, O=Let's Encrypt, CN=R11` → its CN and O. */
export function distinguishedNameParts(dn: string): { cn?: string; o?: string } {
  const parts: { cn?: string; o?: string } = {};
  for (const match of dn.matchAll(/(?:^|,\s*)(CN|O)=("(?:[^"]*)"|[^,]*)/g)) {
    const value = match[2]!.replace(/^"|"$/g, '').trim();
    if (match[1] === 'CN') parts.cn ??= value;
    else parts.o ??= value;
  }
  return parts;
}

/** crt.sh writes UTC timestamps without a zone designator. */
function utc(timestamp: string | undefined): string | undefined {
  if (!timestamp) return undefined;
  return /[zZ]|[+-]\d\d:?\d\d$/.test(timestamp) ? timestamp : `${timestamp}Z`;
}

export class CrtShClient implements CtClient {
  private readonly cache: TtlCache<Omit<CtEntry, 'age_days'>[]>;
  private readonly now: () => number;

  constructor(private readonly options: CtClientOptions) {
    this.cache = new TtlCache(options.cacheTtlMs ?? 600_000);
    this.now = options.now ?? Date.now;
  }

  async search(domain: string, options: CallOptions = {}): Promise<Lookup<CtEntry[]>> {
    const name = domain.toLowerCase().replace(/\.+$/, '');
    if (!name) return failed('not_applicable', 'empty domain');
    const result = await cachedLookup(this.cache, name, () => this.fetch(name, options));
    if (!result.ok) return result;
    const now = this.now();
    return {
      ...result,
      value: result.value.map((entry) => {
        const age = ageInDays(entry.not_before, now);
        return age === undefined ? entry : { ...entry, age_days: age };
      }),
    };
  }

  private async fetch(domain: string, options: CallOptions): Promise<Lookup<CtEntry[]>> {
    const url = new URL(this.options.baseUrl);
    url.searchParams.set('q', domain);
    url.searchParams.set('output', 'json');
    const budget = startBudget(options.timeoutMs ?? this.options.timeoutMs ?? 6_000, options.signal);
    try {
      const body = await httpGetJson(url, {
        dispatcher: this.options.dispatcher,
        signal: budget.signal,
        maxBytes: this.options.maxBytes ?? 4 * 1024 * 1024,
      });
      if (body === undefined) return found([]);
      if (!Array.isArray(body)) return failed('bad_response', 'crt.sh answer is not an array');
      const entries = (body as CrtShRow[]).flatMap((row) => {
        const notBefore = utc(row.not_before);
        if (typeof row.id !== 'number' || !notBefore) return [];
        const issuer = distinguishedNameParts(row.issuer_name ?? '');
        return [
          {
            id: row.id,
            issuer_name: row.issuer_name ?? '',
            ...(issuer.cn ? { issuer_common_name: issuer.cn } : {}),
            ...(issuer.o ? { issuer_organization: issuer.o } : {}),
            common_name: row.common_name ?? '',
            names: [
              ...new Set(
                (row.name_value ?? '')
                  .split('\n')
                  .map((n) => n.trim().toLowerCase())
                  .filter(Boolean),
              ),
            ],
            entry_timestamp: utc(row.entry_timestamp) ?? notBefore,
            not_before: notBefore,
            not_after: utc(row.not_after) ?? '',
            serial_number: row.serial_number ?? '',
          },
        ];
      });
      entries.sort((a, b) => Date.parse(b.not_before) - Date.parse(a.not_before));
      return found(entries);
    } catch (err) {
      return failureFrom(err, budget);
    }
  }
}
