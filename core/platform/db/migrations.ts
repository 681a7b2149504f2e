import path from 'node:path';
import type { Knex } from 'knex';
import { ROOT_DIR } from '../../config.ts';

export const migrationConfig: Knex.MigratorConfig = {
  directory: path.join(ROOT_DIR, 'migrations'),
  loadExtensions: ['.ts'],
  tableName: 'knex_migrations',
};
