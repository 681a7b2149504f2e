// The audit writer's batch insert (one prepared unnest statement per batch): what is stored is what was written,
// field for field, awkward text included.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Knex } from 'knex';
import { createKnex } from '../../core/platform/db/database.ts';
import { type AuditEvent, AuditWriter } from '../../core/services/audit/audit-writer.ts';
import { createTestDatabase } from '../support/database.ts';

describe('audit writer', () => {
  let knex: Knex;
  let drop: () => Promise<void>;
  let workspaceId: string;
  before(async () => {
    const db = await createTestDatabase();
    drop = db.drop;
    knex = createKnex(db.url, 4);
    await knex.migrate.latest();
    [{ id: workspaceId }] = await knex('workspaces').insert({ name: 'audit' }).returning('id');
  });
  after(async () => {
    await knex.destroy();
    await drop();
  });

  const event = (preview: string, extra: Partial<AuditEvent> = {}): AuditEvent => ({
    workspace_id: workspaceId,
    endpoint: 'POST /agent/check-content',
    surface: 'agent_content',
    actor: null,
    request_id: randomUUID(),
    decision_id: randomUUID(),
    outcome: 'block',
    flags: ['agent:injected_instructions', 'agent:credential_lure_for_agents'],
    prompt_preview: preview,
    prompt_sha256: 'a'.repeat(64),
    decision_sha256: 'b'.repeat(64),
    ruleset_hash: 'c'.repeat(64),
    ...extra,
  });
  const stored = async (ids: string[]) => {
    const rows = await knex('audit_events').whereIn('decision_id', ids);
    return new Map(rows.map((r: Record<string, unknown>) => [r.decision_id as string, r]));
  };
  const fields = [
    'workspace_id',
    'endpoint',
    'surface',
    'actor',
    'request_id',
    'decision_id',
    'outcome',
    'flags',
    'prompt_preview',
    'prompt_sha256',
    'decision_sha256',
    'ruleset_hash',
  ] as const;

  it('stores every field as written, awkward text included, in one batch', async () => {
    const writer = new AuditWriter(knex);
    const events = [
      event('plain'),
      event('quotes " and \' and back\\slash \\u0041 and {"json": [1]}', { actor: 'agent "x"' }),
      event('line\nbreak\ttab, é, ﬁ, 😀, \u2028, </script>', { flags: [] }),
      event('', { flags: ['a"b', 'c\\d', 'é'], actor: 'ünïcode' }),
    ];
    await Promise.all(events.map((e) => writer.write(e)));
    assert.equal(writer.stats.batches, 1);
    const rows = await stored(events.map((e) => e.decision_id));
    for (const e of events) {
      const row = rows.get(e.decision_id)!;
      for (const f of fields) assert.deepEqual(row[f], e[f], `${f} of ${JSON.stringify(e.prompt_preview)}`);
    }
  });

  it('a lone surrogate is stored as U+FFFD (pg encodes UTF-8), and a NUL fails the batch', async () => {
    const writer = new AuditWriter(knex);
    const lone = event('half a pair: \ud83d and more');
    await writer.write(lone);
    const row = (await stored([lone.decision_id])).get(lone.decision_id)!;
    assert.equal(row.prompt_preview, 'half a pair: \ufffd and more');
    await assert.rejects(writer.write(event('nul \u0000 byte')));
  });
});
