import { parse as parseCsv } from 'csv-parse/sync';
import type { Knex } from 'knex';
import { type FeedEntry, feedEntryOf } from './feed-entry.ts';

export const FEED_FORMATS = ['plain', 'csv', 'openphish', 'urlhaus', 'phishtank', 'cert_csv'] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];

export interface ParsedFeed {
  entries: (FeedEntry & { category: string })[];
  rejected: { line: number; reason: string }[];
}

const HOST_COLUMNS = ['url', 'host', 'domain', 'hostname'];

/**
 * Reads a feed file. `plain`: one URL or host per line, `#` comments. `openphish`: OpenPhish's plain URL list.
 * `csv`: a header row with a `url`, `host` or `domain` column and an optional `category` column.
 * `urlhaus`: URLhaus's CSV export (`#` comment lines; columns id, dateadded, url, url_status, …, threat, …).
 * `phishtank`: PhishTank's `online-valid` export, CSV (a `url` column) or JSON (an array of objects with `url`).
 * `cert_csv`: a national CERT's CSV list: like `csv` (a `url`, `host`, `domain` or `hostname` column).
 */
export function parseFeed(text: string, format: FeedFormat, defaultCategory: string): ParsedFeed {
  const entries: ParsedFeed['entries'] = [];
  const rejected: ParsedFeed['rejected'] = [];
  const add = (line: number, value: string | undefined, category: string | undefined) => {
    if (!value?.trim()) return;
    try {
      entries.push({ ...feedEntryOf(value), category: (category?.trim() || defaultCategory).toLowerCase() });
    } catch (err) {
      rejected.push({ line, reason: (err as Error).message });
    }
  };

  if (format === 'plain' || format === 'openphish') {
    for (const [i, line] of text.split(/\r?\n/).entries()) {
      if (line.trim().startsWith('#')) continue;
      add(i + 1, line, undefined);
    }
    return { entries, rejected };
  }

  if (format === 'urlhaus') {
    const rows: string[][] = parseCsv(text, { comment: '#', relax_column_count: true, skip_empty_lines: true });
    for (const [i, row] of rows.entries()) add(i + 1, row[2], row[5] || 'malware');
    return { entries, rejected };
  }

  if (format === 'phishtank' && text.trimStart().startsWith('[')) {
    const items = JSON.parse(text) as unknown;
    if (!Array.isArray(items)) throw new Error('phishtank JSON feed must be an array');
    for (const [i, item] of items.entries()) {
      const url = (item as { url?: unknown } | null)?.url;
      if (typeof url === 'string') add(i + 1, url, undefined);
      else rejected.push({ line: i + 1, reason: 'item has no url' });
    }
    return { entries, rejected };
  }

  const rows: Record<string, string>[] = parseCsv(text, {
    columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
    comment: '#',
    skip_empty_lines: true,
    relax_column_count: true,
  });
  const column = rows[0] ? HOST_COLUMNS.find((c) => c in rows[0]!) : undefined;
  if (rows.length > 0 && !column) throw new Error(`csv feed needs one of the columns ${HOST_COLUMNS.join(', ')}`);
  for (const [i, row] of rows.entries()) add(i + 2, row[column!], row.category);
  return { entries, rejected };
}

/** Upserts feed entries: a re-import of the same file changes nothing but `last_seen`. */
export async function importFeedEntries(
  knex: Knex,
  entries: ParsedFeed['entries'],
  source: string,
): Promise<{ inserted: number; updated: number }> {
  let inserted = 0;
  let updated = 0;
  const unique = [...new Map(entries.map((e) => [`${e.kind}\u0000${e.value}`, e])).values()];
  for (let i = 0; i < unique.length; i += 1000) {
    const chunk = unique.slice(i, i + 1000).map((e) => ({ ...e, source }));
    const rows: { inserted: boolean }[] = await knex('threat_feed_entries')
      .insert(chunk)
      .onConflict(['kind', 'value', 'source'])
      .merge({ last_seen: knex.fn.now(), category: knex.raw('excluded.category') })
      .returning(knex.raw('(xmax = 0) as inserted'));
    for (const r of rows) r.inserted ? inserted++ : updated++;
  }
  return { inserted, updated };
}

/** Adds registrable domains to the known-good list (idempotent). */
export async function importKnownGood(knex: Knex, domains: string[], source: string): Promise<number> {
  const unique = [...new Set(domains)];
  let added = 0;
  for (let i = 0; i < unique.length; i += 1000) {
    const rows = await knex('known_good_domains')
      .insert(unique.slice(i, i + 1000).map((domain) => ({ domain, source })))
      .onConflict('domain')
      .ignore()
      .returning('domain');
    added += rows.length;
  }
  return added;
}
