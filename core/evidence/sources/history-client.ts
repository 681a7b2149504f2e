import type { InjectionToken } from 'tsyringe';
import type { Dispatcher } from 'undici';
import { httpGetJson } from './http-json.ts';
import { ageInDays, type CallOptions, failed, failureFrom, found, type Lookup, startBudget } from './lookup.ts';
import { cachedLookup, TtlCache } from './ttl-cache.ts';

export interface HistoryCapture {
  /** CDX's 14-digit `YYYYMMDDhhmmss`, UTC. */
  timestamp: string;
  date: string;
  original: string;
  status_code?: string;
  mimetype?: string;
  /** Whole days since the capture, against the client's clock. */
  age_days: number;
}

export interface HistoryClient {
  /** Archived captures of a domain, oldest first (Wayback CDX `output=json`). */
  captures(domain: string, options?: CallOptions): Promise<Lookup<HistoryCapture[]>>;
}
export const HistoryClient: InjectionToken<HistoryClient> = Symbol('HistoryClient');

export interface HistoryClientOptions {
  dispatcher: Dispatcher;
  /** The archive's root, e.g. `https://web.archive.org/`; the client appends `cdx/search/cdx`. */
  baseUrl: string;
  timeoutMs?: number;
  cacheTtlMs?: number;
  /** Rows asked for; the CDX server returns the oldest first. */
  limit?: number;
  now?: () => number;
}

function cdxTimestampToIso(timestamp: string): string | undefined {
  const m = /^(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?$/.exec(timestamp);
  if (!m) return undefined;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00'] = m;
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${s}Z`;
  return Number.isNaN(Date.parse(iso)) ? undefined : iso;
}

export class WaybackCdxClient implements HistoryClient {
  private readonly cache: TtlCache<Omit<HistoryCapture, 'age_days'>[]>;
  private readonly now: () => number;

  constructor(private readonly options: HistoryClientOptions) {
    this.cache = new TtlCache(options.cacheTtlMs ?? 3_600_000);
    this.now = options.now ?? Date.now;
  }

  async captures(domain: string, options: CallOptions = {}): Promise<Lookup<HistoryCapture[]>> {
    const name = domain.toLowerCase().replace(/\.+$/, '');
    if (!name) return failed('not_applicable', 'empty domain');
    const result = await cachedLookup(this.cache, name, () => this.fetch(name, options));
    if (!result.ok) return result;
    const now = this.now();
    return { ...result, value: result.value.map((c) => ({ ...c, age_days: ageInDays(c.date, now) ?? 0 })) };
  }

  private async fetch(domain: string, options: CallOptions): Promise<Lookup<Omit<HistoryCapture, 'age_days'>[]>> {
    const url = new URL(
      'cdx/search/cdx',
      this.options.baseUrl.endsWith('/') ? this.options.baseUrl : `${this.options.baseUrl}/`,
    );
    url.searchParams.set('url', domain);
    url.searchParams.set('output', 'json');
    url.searchParams.set('limit', String(this.options.limit ?? 500));
    const budget = startBudget(options.timeoutMs ?? this.options.timeoutMs ?? 6_000, options.signal);
    try {
      const body = await httpGetJson(url, {
        dispatcher: this.options.dispatcher,
        signal: budget.signal,
        maxBytes: 4 * 1024 * 1024,
      });
      if (body === undefined) return found([]);
      if (!Array.isArray(body)) return failed('bad_response', 'CDX answer is not an array');
      const [header, ...rows] = body as unknown[][];
      if (!header) return found([]);
      // The first row names the columns; read by name so `fl=` variations still parse.
      const column = (name: string) => (header as string[]).indexOf(name);
      const [ts, original, status, mime] = ['timestamp', 'original', 'statuscode', 'mimetype'].map(column);
      if (ts === undefined || ts < 0) return failed('bad_response', 'CDX header has no timestamp column');
      const captures = rows.flatMap((row) => {
        const timestamp = String(row[ts] ?? '');
        const date = cdxTimestampToIso(timestamp);
        if (!date) return [];
        const statusCode = status !== undefined && status >= 0 ? row[status] : undefined;
        const mimetype = mime !== undefined && mime >= 0 ? row[mime] : undefined;
        return [
          {
            timestamp,
            date,
            original: original !== undefined && original >= 0 ? String(row[original] ?? '') : '',
            ...(typeof statusCode === 'string' ? { status_code: statusCode } : {}),
            ...(typeof mimetype === 'string' ? { mimetype } : {}),
          },
        ];
      });
      captures.sort((a, b) => a.timestamp.localeCompare(b.timestamp));
      return found(captures);
    } catch (err) {
      return failureFrom(err, budget);
    }
  }
}
