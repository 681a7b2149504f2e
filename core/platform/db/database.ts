import { Logger, runMigrations } from 'graphile-worker';
import knexFactory, { type Knex } from 'knex';
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

/** Opens the database (embedded unless DATABASE_URL) and brings the schema up to date. */
export async function openDatabase(
  config: Pick<AppConfig, 'databaseUrl' | 'dataDir'>,
  opts: { migrate?: boolean; poolMax?: number } = {},
): Promise<Database> {
  const { url, embedded } = await resolveDatabaseUrl(config);
  const knex = createKnex(url, opts.poolMax);
  try {
    if (opts.migrate !== false) {
      await knex.migrate.latest();
      // The job queue's own schema, so API processes can add jobs before any worker has started.
      await runMigrations({ connectionString: url, logger: quietLogger });
    }
  } catch (err) {
    await knex.destroy();
    if (embedded?.owned) await embedded.stop();
    throw err;
  }
  return {
    knex,
    url,
    embedded,
    async close() {
      await knex.destroy();
      if (embedded?.owned) await embedded.stop();
    },
  };
}
