import { createHash } from 'node:crypto';
import type { InjectionToken } from 'tsyringe';
import type { Dispatcher } from 'undici';
import { shodanFaviconHash } from './favicon-hash.ts';
import { httpGet } from './http-json.ts';
import { type CallOptions, failureFrom, type LookupFailure, startBudget } from './lookup.ts';
import { findFaviconUrl, findJsRedirect, findMetaRefresh } from './page-redirects.ts';
import { TtlCache } from './ttl-cache.ts';

/** How the fetcher arrived at a URL: the first request, or a redirect of one of three kinds. */
export type HopKind = 'initial' | 'http' | 'meta' | 'js';

export interface FetchedHop {
  url: string;
  kind: HopKind;
  status: number;
  headers: Record<string, string>;
  /** Capped at `maxBodyBytes`; decoded as UTF-8. */
  body: string;
  body_truncated: boolean;
  /** Where this hop sends the client next, if anywhere. */
  redirect?: { kind: Exclude<HopKind, 'initial'>; to: string; status?: number; expression?: string; partial?: boolean };
}

export interface Hsts {
  max_age: number;
  include_subdomains: boolean;
  preload: boolean;
}

export interface Favicon {
  url: string;
  /** Shodan's `http.favicon.hash` (mmh3 of the wrapped base64). */
  hash: number;
  sha256: string;
  size: number;
}

export type FetchStop = 'final' | 'max_hops' | 'loop' | 'error';

export interface FetchResult {
  requested_url: string;
  final_url: string;
  hops: FetchedHop[];
  /** The last page fetched; undefined when even the first request failed. */
  final?: FetchedHop;
  /** From the final HTTPS response; absent means no (valid) HSTS header there. */
  hsts?: Hsts;
  favicon?: Favicon;
  stopped: FetchStop;
  /** Set when a request failed; hops fetched before it are kept. */
  error?: { reason: LookupFailure; detail?: string; url: string };
}

export interface FetchPageOptions extends CallOptions {
  favicon?: boolean;
  /** Fewer requests than the fetcher's own limit for this chain (never more). */
  maxHops?: number;
  /** A response declaring a content type that is not HTML is not read: its body is dropped unread. */
  htmlOnly?: boolean;
}

export interface HttpFetcher {
  fetchPage(url: string, options?: FetchPageOptions): Promise<FetchResult>;
}
export const HttpFetcher: InjectionToken<HttpFetcher> = Symbol('HttpFetcher');

export interface HttpFetcherOptions {
  dispatcher: Dispatcher;
  /** Budget for the whole chain of hops plus the favicon. */
  timeoutMs?: number;
  maxHops?: number;
  maxBodyBytes?: number;
  maxFaviconBytes?: number;
  userAgent?: string;
  cacheTtlMs?: number;
}

export function parseHsts(header: string | undefined): Hsts | undefined {
  if (!header) return undefined;
  const directives = header.split(';').map((part) => part.trim().toLowerCase());
  const maxAge = directives.find((d) => d.startsWith('max-age'))?.match(/^max-age\s*=\s*"?(\d{1,12})"?$/)?.[1];
  if (maxAge === undefined) return undefined;
  return {
    max_age: Number(maxAge),
    include_subdomains: directives.includes('includesubdomains'),
    preload: directives.includes('preload'),
  };
}

/** No content type, or an HTML/XHTML one: what a page is served as. */
function declaresHtml(headers: Record<string, string>): boolean {
  const type = headers['content-type'];
  return !type || /html/i.test(type);
}

function isHtml(headers: Record<string, string>, body: string): boolean {
  const type = headers['content-type'];
  return type ? type.includes('html') : /^\s*</.test(body);
}

export class UndiciHttpFetcher implements HttpFetcher {
  private readonly cache: TtlCache<FetchResult>;

  constructor(private readonly options: HttpFetcherOptions) {
    this.cache = new TtlCache(options.cacheTtlMs ?? 60_000, 100);
  }

  async fetchPage(url: string, options: FetchPageOptions = {}): Promise<FetchResult> {
    const wantFavicon = options.favicon ?? true;
    const key = `${wantFavicon ? 'f' : '-'}${options.htmlOnly ? 'h' : '-'}${options.maxHops ?? ''} ${url}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const result = await this.follow(url, wantFavicon, options);
    if (!result.error) this.cache.set(key, result);
    return result;
  }

  private async follow(url: string, wantFavicon: boolean, options: FetchPageOptions): Promise<FetchResult> {
    const budget = startBudget(options.timeoutMs ?? this.options.timeoutMs ?? 8_000, options.signal);
    const maxHops = Math.min(this.options.maxHops ?? 10, options.maxHops ?? Number.POSITIVE_INFINITY);
    const hops: FetchedHop[] = [];
    const visited = new Set<string>();
    const result: FetchResult = { requested_url: url, final_url: url, hops, stopped: 'final' };
    let next: { url: string; kind: HopKind } | undefined = { url, kind: 'initial' };

    while (next) {
      if (hops.length >= maxHops) {
        result.stopped = 'max_hops';
        break;
      }
      const target = new URL(next.url);
      target.hash = '';
      if (visited.has(target.href)) {
        result.stopped = 'loop';
        break;
      }
      visited.add(target.href);
      // Addresses are judged by the guarded dispatcher at connect time (it knows the lab's connect-to mapping).
      if (target.protocol !== 'http:' && target.protocol !== 'https:') {
        result.stopped = 'error';
        result.error = { reason: 'blocked', detail: `scheme ${target.protocol}`, url: target.href };
        break;
      }
      let hop: FetchedHop;
      try {
        hop = await this.fetchHop(target.href, next.kind, budget.signal, options.htmlOnly ?? false);
      } catch (err) {
        const failure = failureFrom(err, budget);
        result.stopped = 'error';
        if (!failure.ok) result.error = { reason: failure.reason, detail: failure.detail, url: target.href };
        break;
      }
      hops.push(hop);
      result.final = hop;
      result.final_url = hop.url;
      next = hop.redirect ? { url: hop.redirect.to, kind: hop.redirect.kind } : undefined;
    }

    if (result.final?.url.startsWith('https:')) {
      const hsts = parseHsts(result.final.headers['strict-transport-security']);
      if (hsts) result.hsts = hsts;
    }
    if (wantFavicon && result.final && !budget.signal.aborted) {
      const favicon = await this.fetchFavicon(result.final, budget.signal);
      if (favicon) result.favicon = favicon;
    }
    return result;
  }

  private async fetchHop(url: string, kind: HopKind, signal: AbortSignal, htmlOnly: boolean): Promise<FetchedHop> {
    const response = await httpGet(url, {
      dispatcher: this.options.dispatcher,
      signal,
      maxBytes: this.options.maxBodyBytes ?? 1024 * 1024,
      ...(htmlOnly ? { skipBody: (headers: Record<string, string>) => !declaresHtml(headers) } : {}),
      headers: {
        accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
        ...(this.options.userAgent ? { 'user-agent': this.options.userAgent } : {}),
      },
    });
    const hop: FetchedHop = {
      url,
      kind,
      status: response.status,
      headers: response.headers,
      body: response.text,
      body_truncated: response.truncated,
    };
    const location = response.headers.location;
    if (response.status >= 300 && response.status < 400 && location) {
      hop.redirect = { kind: 'http', to: new URL(location, url).href, status: response.status };
    } else if (isHtml(response.headers, response.text)) {
      const meta = findMetaRefresh(response.text, url);
      const js = meta ? undefined : findJsRedirect(response.text, url);
      if (meta) hop.redirect = { kind: 'meta', to: meta.to };
      else if (js) hop.redirect = { kind: 'js', to: js.to, expression: js.expression, partial: js.partial };
    }
    return hop;
  }

  private async fetchFavicon(page: FetchedHop, signal: AbortSignal): Promise<Favicon | undefined> {
    const url = isHtml(page.headers, page.body)
      ? findFaviconUrl(page.body, page.url)
      : new URL('/favicon.ico', page.url).href;
    if (!url || !/^https?:/.test(url)) return undefined;
    try {
      const response = await httpGet(url, {
        dispatcher: this.options.dispatcher,
        signal,
        maxBytes: this.options.maxFaviconBytes ?? 256 * 1024,
        headers: { accept: 'image/*,*/*;q=0.8' },
      });
      // A truncated icon would hash to a value no other host shares: worse than none.
      if (response.status !== 200 || response.truncated || response.bytes.length === 0) return undefined;
      return {
        url,
        hash: shodanFaviconHash(response.bytes),
        sha256: createHash('sha256').update(response.bytes).digest('hex'),
        size: response.bytes.length,
      };
    } catch {
      return undefined;
    }
  }
}
