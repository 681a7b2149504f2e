import type { Knex } from 'knex';

/**
 * API and worker processes cache which webhook endpoints each workspace has (core/services/webhooks/webhook-subscriptions.ts),
 * so publishing an event does not read webhook_endpoints every time. Any change to an endpoint, from any process or
 * plain SQL, NOTIFYs from inside the changing transaction: every listening process drops that workspace's entry
 * when (and only if) the change commits.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function preflight_notify_webhook_change() returns trigger language plpgsql as $$
    begin
      if TG_OP = 'TRUNCATE' then
        perform pg_notify('preflight_webhooks', 'flush');
      elsif TG_OP = 'INSERT' then
        perform pg_notify('preflight_webhooks', 'workspace:' || NEW.workspace_id::text);
      else
        perform pg_notify('preflight_webhooks', 'workspace:' || OLD.workspace_id::text);
        if TG_OP = 'UPDATE' and NEW.workspace_id is distinct from OLD.workspace_id then
          perform pg_notify('preflight_webhooks', 'workspace:' || NEW.workspace_id::text);
        end if;
      end if;
      return null;
    end $$;
  `);
  await knex.raw(`
    create trigger webhook_endpoints_notify_change after insert or update or delete on webhook_endpoints
      for each row execute function preflight_notify_webhook_change()`);
  await knex.raw(`
    create trigger webhook_endpoints_notify_truncate after truncate on webhook_endpoints
      for each statement execute function preflight_notify_webhook_change()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists webhook_endpoints_notify_change on webhook_endpoints');
  await knex.raw('drop trigger if exists webhook_endpoints_notify_truncate on webhook_endpoints');
  await knex.raw('drop function if exists preflight_notify_webhook_change()');
}
