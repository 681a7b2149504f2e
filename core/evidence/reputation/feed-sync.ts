// `feeds sync`: pulls each configured feed through the SSRF-guarded dispatcher and imports it idempotently
// (importFeedEntries upserts on kind/value/source, so a re-pull only moves last_seen). A conditional GET (ETag,
// Last-Modified) and the body's sha256 skip work when nothing changed. Each feed's outcome lands in
// feed_sync_status. Run by the graphile-worker cron (core/services/jobs/worker.ts) and by `npx preflight feeds sync`.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Dispatcher } from 'undici';
import { parseTarget } from '../../engine/url/target.ts';
import { httpGet } from '../sources/http-json.ts';
import { DEFAULT_INTERVAL_MINUTES, DEFAULT_MAX_BYTES, type FeedSource, type FeedsConfig } from './feed-config.ts';
import { importFeedEntries, importKnownGood, parseFeed } from './feed-import.ts';

/** Redirects followed per pull; each hop is checked by the guard again. */
const MAX_REDIRECTS = 3;
const FETCH_TIMEOUT_MS = 60_000;

export type FeedSyncStatus = 'ok' | 'not_modified' | 'unchanged' | 'error' | 'not_due';

export interface FeedSyncResult {
  name: string;
  status: FeedSyncStatus;
  entries?: number;
  inserted?: number;
  updated?: number;
  rejected?: number;
  error?: string;
}

export interface FeedSyncDeps {
  knex: Knex;
  /** The guarded feeds dispatcher (app.sources.dispatchers.feeds): the site guard with certificates checked. */
  dispatcher: Dispatcher;
  /** Called after entries changed, so cached reputation answers are dropped. */
  onChanged?: () => void;
  now?: () => Date;
}

interface StatusRow {
  name: string;
  status: string;
  finished_at: Date | null;
  sha256: string | null;
  etag: string | null;
  last_modified: string | null;
  consecutive_failures: number;
  runs: number;
}

async function fetchFeed(
  feed: FeedSource,
  dispatcher: Dispatcher,
  previous: StatusRow | undefined,
): Promise<{ status: number; text: string; bytes: number; etag?: string; lastModified?: string }> {
  const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  const maxBytes = feed.max_bytes ?? DEFAULT_MAX_BYTES;
  const headers: Record<string, string> = { 'user-agent': 'preflight-feeds/1.0' };
  if (previous?.etag) headers['if-none-match'] = previous.etag;
  if (previous?.last_modified) headers['if-modified-since'] = previous.last_modified;
  let url = new URL(feed.url);
  for (let hop = 0; ; hop++) {
    const res = await httpGet(url, { dispatcher, signal, maxBytes: maxBytes + 1, headers });
    if (res.status >= 300 && res.status < 400 && res.status !== 304 && res.headers.location) {
      if (hop >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
      url = new URL(res.headers.location, url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`redirect to ${url.protocol}`);
      continue;
    }
    if (res.status === 304) return { status: 304, text: '', bytes: 0 };
    if (res.status < 200 || res.status > 299) throw new Error(`HTTP ${res.status} from ${url.host}`);
    if (res.bytes.length > maxBytes) throw new Error(`body larger than ${maxBytes} bytes`);
    return {
      status: res.status,
      text: res.text,
      bytes: res.bytes.length,
      ...(res.headers.etag ? { etag: res.headers.etag } : {}),
      ...(res.headers['last-modified'] ? { lastModified: res.headers['last-modified'] } : {}),
    };
  }
}

function isDue(feed: FeedSource, row: StatusRow | undefined, now: Date): boolean {
  if (!row?.finished_at) return true;
  // A failing feed is retried on the next cron tick; a healthy one waits its interval.
  if (row.status === 'error') return true;
  const interval = (feed.interval_minutes ?? DEFAULT_INTERVAL_MINUTES) * 60_000;
  return now.getTime() - new Date(row.finished_at).getTime() >= interval;
}

async function syncOne(feed: FeedSource, deps: FeedSyncDeps, row: StatusRow | undefined): Promise<FeedSyncResult> {
  const { knex } = deps;
  const started = deps.now?.() ?? new Date();
  const base = { url: feed.url, format: feed.format, started_at: started };
  await knex('feed_sync_status')
    .insert({ name: feed.name, status: 'running', ...base })
    .onConflict('name')
    .merge({ status: 'running', ...base });
  const finish = async (fields: Record<string, unknown>) => {
    const finished = deps.now?.() ?? new Date();
    await knex('feed_sync_status')
      .where({ name: feed.name })
      .update({
        finished_at: finished,
        duration_ms: finished.getTime() - started.getTime(),
        runs: (row?.runs ?? 0) + 1,
        ...fields,
      });
  };
  try {
    const fetched = await fetchFeed(feed, deps.dispatcher, row);
    if (fetched.status === 304) {
      await finish({ status: 'not_modified', last_success_at: started, last_error: null, consecutive_failures: 0 });
      return { name: feed.name, status: 'not_modified' };
    }
    const sha256 = createHash('sha256').update(fetched.text).digest('hex');
    const meta = {
      sha256,
      bytes: fetched.bytes,
      etag: fetched.etag ?? null,
      last_modified: fetched.lastModified ?? null,
    };
    if (row?.sha256 === sha256) {
      await finish({
        status: 'unchanged',
        ...meta,
        last_success_at: started,
        last_error: null,
        consecutive_failures: 0,
      });
      return { name: feed.name, status: 'unchanged' };
    }
    const parsed = parseFeed(fetched.text, feed.format, feed.category ?? 'phishing');
    let inserted = 0;
    let updated = 0;
    if (feed.known_good) {
      const domains = parsed.entries.flatMap((e) => {
        const domain = parseTarget(e.host).registrableDomain;
        return domain ? [domain] : [];
      });
      inserted = await importKnownGood(knex, domains, `feed:${feed.name}`);
    } else {
      ({ inserted, updated } = await importFeedEntries(knex, parsed.entries, `feed:${feed.name}`));
    }
    await finish({
      status: 'ok',
      ...meta,
      entries: parsed.entries.length,
      inserted,
      updated,
      rejected: parsed.rejected.length,
      last_success_at: started,
      last_error: null,
      consecutive_failures: 0,
    });
    if (inserted > 0 || updated > 0) deps.onChanged?.();
    return {
      name: feed.name,
      status: 'ok',
      entries: parsed.entries.length,
      inserted,
      updated,
      rejected: parsed.rejected.length,
    };
  } catch (err) {
    const message = (err as Error).message.slice(0, 500);
    await finish({ status: 'error', last_error: message, consecutive_failures: (row?.consecutive_failures ?? 0) + 1 });
    return { name: feed.name, status: 'error', error: message };
  }
}

/**
 * Pulls every configured feed that is due (or only `only`, or all with `force`), one after another so a slow feed
 * never runs twice at once within a process; graphile-worker's job key keeps two workers from overlapping.
 */
export async function syncFeeds(
  config: FeedsConfig,
  deps: FeedSyncDeps,
  opts: { only?: string; force?: boolean } = {},
): Promise<FeedSyncResult[]> {
  const feeds = config.feeds.filter((f) => !opts.only || f.name === opts.only);
  if (opts.only && feeds.length === 0) throw new Error(`no feed named ${opts.only} in the feeds config`);
  const rows = new Map<string, StatusRow>(
    (
      await deps.knex('feed_sync_status').whereIn(
        'name',
        feeds.map((f) => f.name),
      )
    ).map((r: StatusRow) => [r.name, r]),
  );
  const now = deps.now?.() ?? new Date();
  const results: FeedSyncResult[] = [];
  for (const feed of feeds) {
    const row = rows.get(feed.name);
    if (!opts.force && !isDue(feed, row, now)) {
      results.push({ name: feed.name, status: 'not_due' });
      continue;
    }
    results.push(await syncOne(feed, deps, row));
  }
  return results;
}

/** Every status row, newest first: what `npx preflight feeds status` prints. */
export async function feedStatus(knex: Knex): Promise<Record<string, unknown>[]> {
  const rows = await knex('feed_sync_status').orderBy('name');
  return rows.map((r: Record<string, unknown>) => ({
    ...r,
    bytes: Number(r.bytes),
    started_at: r.started_at ? new Date(r.started_at as string).toISOString() : null,
    finished_at: r.finished_at ? new Date(r.finished_at as string).toISOString() : null,
    last_success_at: r.last_success_at ? new Date(r.last_success_at as string).toISOString() : null,
  }));
}
