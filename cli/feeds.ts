// `npx preflight feeds sync` and `feeds status`: the cron job's work on demand, and what it last did per feed.
import type { Command } from 'commander';
import { createPreflight } from '../app/index.ts';
import { loadConfig } from '../core/config.ts';
import { feedsConfigPath, loadFeedsConfig } from '../core/evidence/reputation/feed-config.ts';
import { feedStatus, syncFeeds } from '../core/evidence/reputation/feed-sync.ts';
import { openDatabase } from '../core/platform/db/database.ts';

const STATUS_COLUMNS = ['name', 'status', 'finished_at', 'entries', 'inserted', 'updated', 'rejected', 'last_error'];

function table(rows: Record<string, unknown>[]): string {
  const cells = rows.map((r) => STATUS_COLUMNS.map((c) => String(r[c] ?? '')));
  const widths = STATUS_COLUMNS.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(STATUS_COLUMNS), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

export function registerFeedCommands(feeds: Command): void {
  feeds
    .command('sync')
    .description(
      'pull the configured feeds now (PREFLIGHT_FEEDS_CONFIG or config/feeds.json) through the SSRF guard and import them idempotently; the worker does the same every 15 minutes',
    )
    .option('--config <file>', 'feeds config file (default PREFLIGHT_FEEDS_CONFIG or config/feeds.json)')
    .option('--feed <name>', 'only this feed')
    .option('--force', 'pull even feeds whose interval has not passed', false)
    .action(async (opts: { config?: string; feed?: string; force: boolean }) => {
      const config = loadFeedsConfig(opts.config ?? feedsConfigPath());
      const app = await createPreflight(loadConfig());
      try {
        const results = await syncFeeds(
          config,
          { knex: app.db.knex, dispatcher: app.sources.dispatchers.feeds },
          { ...(opts.feed ? { only: opts.feed } : {}), force: opts.force },
        );
        for (const r of results) process.stdout.write(`${JSON.stringify(r)}\n`);
        if (results.some((r) => r.status === 'error')) process.exitCode = 1;
      } finally {
        await app.close();
      }
    });
  feeds
    .command('status')
    .description('what the last pull of each feed did (status, counts, error), from feed_sync_status')
    .option('--json', 'one JSON object per feed instead of a table', false)
    .action(async (opts: { json: boolean }) => {
      const db = await openDatabase(loadConfig(), { poolMax: 2 });
      try {
        const rows = await feedStatus(db.knex);
        process.stdout.write(opts.json ? rows.map((r) => `${JSON.stringify(r)}\n`).join('') : `${table(rows)}\n`);
      } finally {
        await db.close();
      }
    });
}
