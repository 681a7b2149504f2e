import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import { changedLocally, type KeyRecord, principalCacheOf } from './principal-cache.ts';

export type KeyRole = 'admin' | 'agent';
export const KEY_ROLES: readonly KeyRole[] = ['admin', 'agent'];

/** What a request knows about its caller once the key checks out. */
export interface Principal {
  keyId: string;
  keyPrefix: string;
  role: KeyRole;
  workspace?: {
    id: string;
    name: string;
    plan: string;
    agentChecksEnabled: boolean;
    campaignTaggingEnabled: boolean;
    /** The stored guardrail policy document (see core/services/agent-policy/workspace-policy.ts). */
    agentPolicy: unknown;
  };
}

export interface CreatedKey {
  key: string;
  id: string;
  prefix: string;
  role: KeyRole;
  workspace: string;
}

const KEY_PATTERN = /^pf_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/;
// Compared against when the prefix is unknown, so an unknown key costs the same as a wrong one.
const DUMMY_HASH = createHash('sha256').update('preflight-dummy-key').digest();

function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function newKey(): { key: string; prefix: string } {
  const prefixId = randomBytes(9).toString('base64url').replace(/[-_]/g, 'x').slice(0, 12);
  const secret = randomBytes(32).toString('base64url');
  return { key: `pf_${prefixId}_${secret}`, prefix: `pf_${prefixId}` };
}

export async function ensureWorkspace(knex: Knex, name: string): Promise<{ id: string; name: string }> {
  await knex('workspaces').insert({ name }).onConflict('name').ignore();
  return knex('workspaces').where({ name }).first('id', 'name');
}

export async function createApiKey(
  knex: Knex,
  opts: { workspace: string; role: KeyRole; label?: string },
): Promise<CreatedKey> {
  const ws = await ensureWorkspace(knex, opts.workspace);
  const { key, prefix } = newKey();
  const [row] = await knex('api_keys')
    .insert({ workspace_id: ws.id, prefix, key_sha256: sha256(key), role: opts.role, label: opts.label ?? null })
    .returning('id');
  return { key, id: row.id, prefix, role: opts.role, workspace: ws.name };
}

export async function listApiKeys(knex: Knex, workspace?: string) {
  const q = knex('api_keys as k')
    .leftJoin('workspaces as w', 'w.id', 'k.workspace_id')
    .select('k.id', 'k.prefix', 'k.role', 'k.label', 'w.name as workspace', 'k.created_at', 'k.revoked_at')
    .orderBy('k.created_at');
  if (workspace) q.where('w.name', workspace);
  return q;
}

/** Revokes by id or display prefix; returns how many keys changed. */
export async function revokeApiKey(knex: Knex, idOrPrefix: string): Promise<number> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrPrefix);
  const rows: { id: string }[] = await knex('api_keys')
    .where(isUuid ? { id: idOrPrefix } : { prefix: idOrPrefix })
    .whereNull('revoked_at')
    .update({ revoked_at: knex.fn.now() })
    .returning('id');
  for (const { id } of rows) changedLocally(knex, `key:${id}`);
  return rows.length;
}

/** Revokes one key of one workspace (a foreign or unknown id changes nothing); returns whether it changed. */
export async function revokeWorkspaceKey(knex: Knex, workspaceId: string, id: string): Promise<boolean> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return false;
  const rows: { id: string }[] = await knex('api_keys')
    .where({ id, workspace_id: workspaceId })
    .whereNull('revoked_at')
    .update({ revoked_at: knex.fn.now() })
    .returning('id');
  for (const row of rows) changedLocally(knex, `key:${row.id}`);
  return rows.length > 0;
}

export type KeyCheck = { ok: true; principal: Principal } | { ok: false; reason: 'invalid' | 'revoked' };

async function loadKeyRecord(knex: Knex, prefix: string): Promise<KeyRecord | undefined> {
  const row = await knex('api_keys as k')
    .leftJoin('workspaces as w', 'w.id', 'k.workspace_id')
    .where('k.prefix', prefix)
    .first(
      'k.id',
      'k.prefix',
      'k.role',
      'k.key_sha256',
      'k.revoked_at',
      'w.id as workspace_id',
      'w.name as workspace_name',
      'w.plan',
      'w.agent_checks_enabled',
      'w.campaign_tagging_enabled',
      'w.agent_policy',
    );
  if (!row) return undefined;
  // Frozen: a cached principal is shared by every request that presents the key.
  const workspace = row.workspace_id
    ? Object.freeze({
        id: row.workspace_id,
        name: row.workspace_name,
        plan: row.plan,
        agentChecksEnabled: row.agent_checks_enabled,
        campaignTaggingEnabled: row.campaign_tagging_enabled,
        agentPolicy: row.agent_policy,
      })
    : undefined;
  return {
    keySha256: row.key_sha256,
    revoked: Boolean(row.revoked_at),
    principal: Object.freeze({ keyId: row.id, keyPrefix: row.prefix, role: row.role, workspace }),
  };
}

/** The key record from the app's principal cache when it is live, else from the database (and then cached). */
async function cachedKeyRecord(knex: Knex, prefix: string): Promise<KeyRecord | undefined> {
  const cache = principalCacheOf(knex);
  const hit = cache?.get(prefix);
  if (hit) return hit;
  const generation = cache?.begin() ?? 0;
  const record = await loadKeyRecord(knex, prefix);
  if (record) cache?.put(prefix, record, generation);
  return record;
}

/**
 * Checks a presented key. The record comes from the app's principal cache when one is attached to this knex and
 * listening for changes (core/services/workspaces/principal-cache.ts), else from the database. Either way the presented key
 * is hashed and compared in constant time on every request.
 */
export async function authenticateKey(knex: Knex, presented: string): Promise<KeyCheck> {
  const match = KEY_PATTERN.exec(presented);
  const prefix = match ? `pf_${match[1]}` : undefined;
  const record = prefix ? await cachedKeyRecord(knex, prefix) : undefined;
  const same = timingSafeEqual(sha256(presented), record?.keySha256 ?? DUMMY_HASH);
  if (!record || !same) return { ok: false, reason: 'invalid' };
  if (record.revoked) return { ok: false, reason: 'revoked' };
  return { ok: true, principal: record.principal };
}

/**
 * The key record behind a display prefix, for a credential that already proved itself another way (a console
 * session stands for the key that opened it): not a key check, so never call it with what a caller presented.
 */
export async function authenticatePrefix(knex: Knex, prefix: string): Promise<KeyCheck> {
  const record = await cachedKeyRecord(knex, prefix);
  if (!record) return { ok: false, reason: 'invalid' };
  if (record.revoked) return { ok: false, reason: 'revoked' };
  return { ok: true, principal: record.principal };
}

export async function updateWorkspace(
  knex: Knex,
  name: string,
  patch: Partial<{ agent_checks_enabled: boolean; plan: string; campaign_tagging_enabled: boolean }>,
): Promise<boolean> {
  const rows: { id: string }[] = await knex('workspaces').where({ name }).update(patch).returning('id');
  for (const { id } of rows) changedLocally(knex, `workspace:${id}`);
  return rows.length > 0;
}
