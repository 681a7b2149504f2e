import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('scan_jobs', (t) => {
    // The integer scan_id of the spec.
    t.bigIncrements('id');
    t.uuid('workspace_id').references('workspaces.id').onDelete('CASCADE');
    // Anonymous jobs are read back with this token (sha256 stored, the token shown once).
    t.text('access_token_sha256');
    t.text('domain').notNullable();
    t.text('target_url').notNullable();
    t.boolean('force_scan').notNullable().defaultTo(false);
    t.text('status').notNullable().checkIn(['queued', 'running', 'done', 'failed', 'dead_letter']);
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('stale_recoveries').notNullable().defaultTo(0);
    t.text('error');
    t.text('actor');
    t.bigInteger('gw_job_id');
    t.text('worker_id');
    t.uuid('worker_process_id');
    t.bigInteger('result_scan_id').references('scans.id').onDelete('SET NULL');
    t.jsonb('result');
    t.timestamp('queued_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('started_at', { useTz: true });
    t.timestamp('finished_at', { useTz: true });
    t.integer('run_duration_ms');
    t.index(['workspace_id', 'id']);
    t.index(['status']);
  });

  // One row per worker process, refreshed every few seconds: how stale-job recovery tells a dead worker.
  await knex.schema.createTable('worker_processes', (t) => {
    t.uuid('id').primary();
    t.integer('pid').notNullable();
    t.text('hostname').notNullable();
    t.timestamp('started_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_seen', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('worker_processes');
  await knex.schema.dropTable('scan_jobs');
}
