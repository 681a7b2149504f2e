import { Logger, runMigrations } from 'graphile-worker';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { AppConfig } from '../../config.ts';
import { type EmbeddedDatabase, openEmbeddedDatabase } from './embedded-postgres.ts';
import { migrationConfig } from './migrations.ts';

/** graphile-worker logs every migration step at info; only warnings and errors are worth an operator's eye. */
export const quietLogger = new Logger(() => (level, message) => {
  if (level === 'error' || level === 'warning') process.stderr.write(`graphile-worker ${level}: ${message}\n`);
});

export interface Database {
  knex: Knex;
  url: string;
  embedded?: EmbeddedDatabase;
  /** Names of the knex migrations this open applied (empty when the schema was already current or migrate: false). */
  applied: string[];
  close(): Promise<void>;
}

export async function resolveDatabaseUrl(
  config: Pick<AppConfig, 'databaseUrl' | 'dataDir'>,
): Promise<{ url: string; embedded?: EmbeddedDatabase }> {
  if (config.databaseUrl) return { url: config.databaseUrl };
  const embedded = await openEmbeddedDatabase(config.dataDir);
  return { url: embedded.url, embedded };
}

export function createKnex(url: string, poolMax = 10): Knex {
  return knexFactory({
    client: 'pg',
    connection: url,
    pool: { min: 0, max: poolMax },
    migrations: migrationConfig,
  });
}

/**
 * Brings both schemas up to date, one process at a time. Two processes migrating a fresh database at once each insert
 * a row into knex's lock table, and knex then refuses every later run for good ("Migration table is already locked")
 * until someone deletes a row by hand; a session advisory lock makes the second process wait and then find nothing to
 * do. The lock lives on its own connection and goes with it, so a process killed mid-migration frees it too.
 */
export async function migrateDatabase(url: string, knex: Knex): Promise<string[]> {
  const session = new pg.Client({ connectionString: url });
  await session.connect();
  try {
    await session.query("select pg_advisory_lock(hashtext('preflight.migrations'))");
    const [, applied] = (await knex.migrate.latest()) as [number, string[]];
    // The job queue's own schema, so API processes can add jobs before any worker has started.
    await runMigrations({ connectionString: url, logger: quietLogger });
    return applied;
  } finally {
    await session.end();
  }
}

/** Opens the database (embedded unless DATABASE_URL) and brings the schema up to date. */
export async function openDatabase(
  config: Pick<AppConfig, 'databaseUrl' | 'dataDir'>,
  opts: { migrate?: boolean; poolMax?: number } = {},
): Promise<Database> {
  const { url, embedded } = await resolveDatabaseUrl(config);
  const knex = createKnex(url, opts.poolMax);
  let applied: string[] = [];
  try {
    if (opts.migrate !== false) applied = await migrateDatabase(url, knex);
  } catch (err) {
    await knex.destroy();
    if (embedded?.owned) await embedded.stop();
    throw err;
  }
  return {
    knex,
    url,
    embedded,
    applied,
    async close() {
      await knex.destroy();
      if (embedded?.owned) await embedded.stop();
    },
  };
}
