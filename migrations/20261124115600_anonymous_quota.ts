import type { Knex } from 'knex';

/**
 * Daily scan quota of anonymous callers (rules/plans.json `anonymous.scan_quota_daily`), counted per client
 * address bucket (an IPv4 address, an IPv6 /64) like the anonymous rate limit, per UTC day.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('anonymous_quota_usage', (t) => {
    t.text('bucket').notNullable();
    t.text('kind').notNullable();
    t.date('day').notNullable();
    t.integer('used').notNullable().defaultTo(0);
    t.primary(['bucket', 'kind', 'day']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('anonymous_quota_usage');
}
