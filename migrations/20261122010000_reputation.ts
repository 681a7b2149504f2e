import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { parse } from 'tldts';
import { ROOT_DIR } from '../core/config.ts';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('threat_feed_entries', (t) => {
    t.bigIncrements('id');
    t.text('kind').notNullable().checkIn(['host', 'url']);
    // Normalised: a lower-case host, or a URL without fragment and default port.
    t.text('value').notNullable();
    t.text('host').notNullable();
    t.text('category').notNullable();
    t.text('source').notNullable();
    t.timestamp('first_seen', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_seen', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['kind', 'value', 'source']);
    t.index(['host']);
  });

  await knex.schema.createTable('known_good_domains', (t) => {
    t.text('domain').primary();
    t.text('source').notNullable();
    t.integer('rank');
    t.timestamp('added_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  // The starter list ships with the project (data/known-good/, MIT); deployments add their own with
  // `npx preflight feeds import FILE --known-good`.
  const starter = JSON.parse(readFileSync(path.join(ROOT_DIR, 'data', 'known-good', 'top-sites.json'), 'utf8')) as {
    source: string;
    domains: { rank: number; domain: string }[];
  };
  const excluded = new Set(
    Object.values(
      JSON.parse(readFileSync(path.join(ROOT_DIR, 'data', 'known-good', 'excluded.json'), 'utf8')) as Record<
        string,
        string[] | string
      >,
    ).flatMap((v) => (Array.isArray(v) ? v : [])),
  );
  const rows = new Map<string, { domain: string; source: string; rank: number }>();
  for (const { rank, domain } of starter.domains) {
    const registrable = parse(domain).domain;
    if (!registrable || excluded.has(registrable) || rows.has(registrable)) continue;
    rows.set(registrable, { domain: registrable, source: 'top-sites', rank });
  }
  await knex.batchInsert('known_good_domains', [...rows.values()], 500);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('known_good_domains');
  await knex.schema.dropTable('threat_feed_entries');
}
