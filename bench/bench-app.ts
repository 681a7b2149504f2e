import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPreflight } from '../app/index.ts';
import { loadConfig } from '../core/config.ts';
import { openEmbeddedDatabase } from '../core/platform/db/embedded-postgres.ts';
import { Knex } from '../core/platform/db/knex-token.ts';
import { createApiKey } from '../core/services/workspaces/api-keys.ts';

/**
 * The app the bench entry points measure (bench/index.ts, bench/profile.ts): an embedded Postgres in a fresh temp
 * folder unless DATABASE_URL names one, request logging off, and an agent key in workspace `bench`.
 */
export async function benchApp(tmpPrefix: string) {
  const embedded = process.env.DATABASE_URL
    ? undefined
    : await openEmbeddedDatabase(mkdtempSync(path.join(os.tmpdir(), tmpPrefix)));
  const databaseUrl = process.env.DATABASE_URL ?? embedded!.url;
  const config = { ...loadConfig(), databaseUrl, port: 0, host: '127.0.0.1', logRequests: false };
  const app = await createPreflight(config);
  const key = (await createApiKey(app.container.resolve(Knex), { workspace: 'bench', role: 'agent' })).key;
  return {
    app,
    config,
    key,
    /** Stops the embedded database, if one was started (close the apps first). */
    stopDatabase: async () => {
      await embedded?.stop();
    },
  };
}
