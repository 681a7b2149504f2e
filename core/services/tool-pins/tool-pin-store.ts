import { inject, injectable } from 'tsyringe';
import { canonicalJson, sha256Hex } from '../../engine/contract/canonical-json.ts';
import { Knex } from '../../platform/db/knex-token.ts';
import { auditPreview } from '../audit/redact.ts';

/** A tool's MCP definition as a `tools/list` answer gives it. */
export interface ToolDefinition {
  description?: string;
  input_schema?: Record<string, unknown>;
}

/**
 * `first_seen`: no pin existed, this definition is now pinned (trust on first use). `pinned`: the definition is
 * the pinned one. `changed`: it differs from the pinned one (a "rug pull") and waits for an admin to approve it.
 */
export type PinStatus = 'first_seen' | 'pinned' | 'changed';

export interface PinObservation {
  server: string;
  tool: string;
  status: PinStatus;
  /** Whether an admin approved exactly this definition (a first-sight pin is not an approval). */
  admin_approved: boolean;
  /** Which parts differ from the pinned definition (`changed` only). */
  changed: ('description' | 'input_schema')[];
  description_sha256: string;
  input_schema_sha256: string;
  pinned: { description_sha256: string; input_schema_sha256: string; approved_by: string; approved_at: string };
}

export interface ToolPinView {
  server: string;
  tool: string;
  description_sha256: string;
  input_schema_sha256: string;
  approved_by: string;
  approved_at: string;
  first_seen_at: string;
  last_seen_at: string;
  pending: {
    description_sha256: string;
    input_schema_sha256: string;
    description_preview: string;
    seen_at: string;
  } | null;
}

export class ToolPinNotFound extends Error {}
export class ToolPinMismatch extends Error {}

export function definitionHashes(def: ToolDefinition): { description_sha256: string; input_schema_sha256: string } {
  return {
    description_sha256: sha256Hex(def.description ?? ''),
    input_schema_sha256: sha256Hex(canonicalJson(def.input_schema ?? {})),
  };
}

interface PinRow {
  server: string;
  tool: string;
  description_sha256: string;
  input_schema_sha256: string;
  approved_by: string;
  approved_at: Date;
  pending_description_sha256: string | null;
  pending_input_schema_sha256: string | null;
  pending_description_preview: string | null;
  pending_seen_at: Date | null;
  first_seen_at: Date;
  last_seen_at: Date;
}

/** Per-workspace pins of MCP tool definitions (hashes only; see migrations/*_tool_pins.ts). */
@injectable()
export class ToolPinStore {
  constructor(@inject(Knex) private readonly knex: Knex) {}

  /**
   * Records a sighting and says how it compares with the pin. Concurrent first sightings agree: the insert is
   * conflict-free and the loser reads the winner's row.
   */
  async observe(workspaceId: string, server: string, tool: string, def: ToolDefinition): Promise<PinObservation> {
    const hashes = definitionHashes(def);
    const inserted: PinRow[] = await this.knex('tool_pins')
      .insert({ workspace_id: workspaceId, server, tool, ...hashes, approved_by: 'first_sight' })
      .onConflict(['workspace_id', 'server', 'tool'])
      .ignore()
      .returning('*');
    if (inserted[0]) return observation(inserted[0], hashes, 'first_seen');

    const row: PinRow = await this.knex('tool_pins').where({ workspace_id: workspaceId, server, tool }).first();
    const changed: PinObservation['changed'] = [];
    if (row.description_sha256 !== hashes.description_sha256) changed.push('description');
    if (row.input_schema_sha256 !== hashes.input_schema_sha256) changed.push('input_schema');
    const update: Record<string, unknown> = { last_seen_at: this.knex.fn.now() };
    if (changed.length > 0) {
      // The newest differing definition is what an admin approves next.
      Object.assign(update, {
        pending_description_sha256: hashes.description_sha256,
        pending_input_schema_sha256: hashes.input_schema_sha256,
        pending_description_preview: auditPreview(def.description ?? ''),
        pending_seen_at: this.knex.fn.now(),
      });
    }
    await this.knex('tool_pins').where({ workspace_id: workspaceId, server, tool }).update(update);
    return { ...observation(row, hashes, changed.length > 0 ? 'changed' : 'pinned'), changed };
  }

  /**
   * An admin approves the newest definition seen for a tool (the pending one, or the pinned one when nothing is
   * pending, which turns a first-sight pin into an approval). Given hashes must match what is approved.
   */
  async approve(
    workspaceId: string,
    ref: { tool: string; server?: string; description_sha256?: string; input_schema_sha256?: string },
    approvedBy: string,
  ): Promise<void> {
    await this.knex.transaction(async (trx) => {
      const where = { workspace_id: workspaceId, server: ref.server ?? '', tool: ref.tool };
      const row: PinRow | undefined = await trx('tool_pins').where(where).forUpdate().first();
      if (!row) throw new ToolPinNotFound(`no pinned tool ${ref.server ? `${ref.server}/` : ''}${ref.tool}`);
      const next = {
        description_sha256: row.pending_description_sha256 ?? row.description_sha256,
        input_schema_sha256: row.pending_input_schema_sha256 ?? row.input_schema_sha256,
      };
      if (
        (ref.description_sha256 && ref.description_sha256 !== next.description_sha256) ||
        (ref.input_schema_sha256 && ref.input_schema_sha256 !== next.input_schema_sha256)
      ) {
        throw new ToolPinMismatch(
          `the newest definition of ${ref.tool} is not the one named (description ${next.description_sha256}, input schema ${next.input_schema_sha256})`,
        );
      }
      await trx('tool_pins')
        .where(where)
        .update({
          ...next,
          approved_by: approvedBy,
          approved_at: trx.fn.now(),
          pending_description_sha256: null,
          pending_input_schema_sha256: null,
          pending_description_preview: null,
          pending_seen_at: null,
        });
    });
  }

  async list(workspaceId: string): Promise<ToolPinView[]> {
    const rows: PinRow[] = await this.knex('tool_pins')
      .where({ workspace_id: workspaceId })
      .orderBy(['server', 'tool']);
    return rows.map((r) => ({
      server: r.server,
      tool: r.tool,
      description_sha256: r.description_sha256,
      input_schema_sha256: r.input_schema_sha256,
      approved_by: r.approved_by,
      approved_at: r.approved_at.toISOString(),
      first_seen_at: r.first_seen_at.toISOString(),
      last_seen_at: r.last_seen_at.toISOString(),
      pending: r.pending_description_sha256
        ? {
            description_sha256: r.pending_description_sha256,
            input_schema_sha256: r.pending_input_schema_sha256 ?? '',
            description_preview: r.pending_description_preview ?? '',
            seen_at: (r.pending_seen_at ?? r.last_seen_at).toISOString(),
          }
        : null,
    }));
  }
}

function observation(row: PinRow, hashes: ReturnType<typeof definitionHashes>, status: PinStatus): PinObservation {
  const matchesPin =
    row.description_sha256 === hashes.description_sha256 && row.input_schema_sha256 === hashes.input_schema_sha256;
  return {
    server: row.server,
    tool: row.tool,
    status,
    admin_approved: matchesPin && row.approved_by !== 'first_sight',
    changed: [],
    ...hashes,
    pinned: {
      description_sha256: row.description_sha256,
      input_schema_sha256: row.input_schema_sha256,
      approved_by: row.approved_by,
      approved_at: new Date(row.approved_at).toISOString(),
    },
  };
}
