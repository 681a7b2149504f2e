// For the knex CLI (`npx knex --knexfile knexfile.ts ...` under tsx). The service and `npm run migrate`
// use the same settings through core/platform/db/database.ts, which also knows about the embedded database.
import { migrationConfig } from './core/platform/db/migrations.ts';

export default {
  client: 'pg',
  connection: process.env.DATABASE_URL,
  migrations: migrationConfig,
};
