import type { Knex } from 'knex';

/** The ticket bridge: case-management tickets opened from a scan or an agent decision, per workspace. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('tickets', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('source_type').notNullable().checkIn(['scan', 'decision']);
    t.bigInteger('scan_id').references('scans.id').onDelete('SET NULL');
    t.uuid('decision_id');
    t.text('title').notNullable();
    t.text('severity').notNullable().checkIn(['low', 'medium', 'high', 'critical']);
    t.text('status').notNullable().checkIn(['open', 'acknowledged', 'in_progress', 'resolved', 'dismissed']);
    t.specificType('flags', 'text[]').notNullable();
    // What the source said: domain, score and risk level of a scan; surface, verdict and endpoint of a decision.
    t.jsonb('source').notNullable();
    t.uuid('evidence_pack_id');
    t.text('evidence_pack_sha256');
    t.text('decision_sha256');
    t.text('actor');
    // 'api:<key prefix>' or 'escalation:<rule name>'.
    t.text('opened_by').notNullable();
    t.text('assignee');
    t.text('external_ref');
    t.text('note');
    t.jsonb('history').notNullable().defaultTo('[]');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // One ticket per source: opening it again returns the existing ticket.
    t.unique(['workspace_id', 'scan_id']);
    t.unique(['workspace_id', 'decision_id']);
    t.index(['workspace_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('tickets');
}
