import type { Knex } from 'knex';

/**
 * Signed webhooks: per-workspace endpoints with the event types they want, and one delivery row per (event,
 * endpoint) whose attempts run as graphile-worker jobs (exponential backoff, then dead_letter).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_endpoints', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('url').notNullable();
    t.specificType('event_types', 'text[]').notNullable();
    // The signing key (Standard Webhooks `whsec_…`): needed in clear to sign, shown to the workspace once.
    t.text('secret').notNullable();
    t.text('description');
    t.boolean('enabled').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['workspace_id']);
  });
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('endpoint_id').notNullable().references('webhook_endpoints.id').onDelete('CASCADE');
    // webhook-id: the same for every attempt and redelivery of this message, so receivers can deduplicate.
    t.text('message_id').notNullable();
    t.text('event_type').notNullable();
    // The exact body that is signed and sent.
    t.text('payload').notNullable();
    t.text('status').notNullable().checkIn(['pending', 'retrying', 'delivered', 'dead_letter']);
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('last_status_code');
    t.text('last_error');
    t.jsonb('attempt_log').notNullable().defaultTo('[]');
    t.bigInteger('gw_job_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('delivered_at', { useTz: true });
    t.index(['workspace_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_deliveries');
  await knex.schema.dropTable('webhook_endpoints');
}
