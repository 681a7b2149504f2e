import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { openEmbeddedDatabase } from '../../core/platform/db/embedded-postgres.ts';

let standaloneServer: Promise<string> | undefined;

/** The server test databases are made on: the one test/run.ts provides, or an embedded one for a lone file. */
async function serverUrl(): Promise<string> {
  const given = process.env.PREFLIGHT_TEST_DATABASE_URL;
  if (given) return given;
  standaloneServer ??= openEmbeddedDatabase(mkdtempSync(path.join(os.tmpdir(), 'preflight-pg-')), {
    fast: true,
  }).then((db) => db.url);
  return standaloneServer;
}

/** A fresh, empty database for one test file; `drop` removes it. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = new URL(await serverUrl());
  const name = `pf_test_${randomBytes(6).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: base.toString(), pool: { min: 0, max: 1 } });
  await admin.raw(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.raw(`drop database if exists ${name} with (force)`);
      await admin.destroy();
    },
  };
}
