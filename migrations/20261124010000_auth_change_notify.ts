import type { Knex } from 'knex';

/**
 * API processes cache key lookups (hash → principal with its workspace settings and policy). Any change to a key
 * or a workspace, from any process, the CLI or plain SQL, sends a NOTIFY from inside the changing transaction, so
 * it reaches every listening process when (and only if) the change commits. See core/services/workspaces/principal-cache.ts.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function preflight_notify_auth_change() returns trigger language plpgsql as $$
    begin
      if TG_OP = 'TRUNCATE' then
        perform pg_notify('preflight_auth', 'flush');
      elsif TG_TABLE_NAME = 'api_keys' then
        perform pg_notify('preflight_auth', 'key:' || OLD.id::text);
      else
        perform pg_notify('preflight_auth', 'workspace:' || OLD.id::text);
      end if;
      return null;
    end $$;
  `);
  for (const table of ['api_keys', 'workspaces']) {
    await knex.raw(`
      create trigger ${table}_notify_change after update or delete on ${table}
        for each row execute function preflight_notify_auth_change()`);
    await knex.raw(`
      create trigger ${table}_notify_truncate after truncate on ${table}
        for each statement execute function preflight_notify_auth_change()`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['api_keys', 'workspaces']) {
    await knex.raw(`drop trigger if exists ${table}_notify_change on ${table}`);
    await knex.raw(`drop trigger if exists ${table}_notify_truncate on ${table}`);
  }
  await knex.raw('drop function if exists preflight_notify_auth_change()');
}
