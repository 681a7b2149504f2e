import { inject, injectable } from 'tsyringe';
import { Knex } from '../../platform/db/knex-token.ts';
import { EventBus } from '../../platform/events/event-bus.ts';

export const TICKET_STATUSES = ['open', 'acknowledged', 'in_progress', 'resolved', 'dismissed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export const TICKET_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type TicketSeverity = (typeof TICKET_SEVERITIES)[number];

/** Where a ticket comes from: a stored scan (by its id, or by the id of the job that made it) or a decision. */
export type TicketSource = { scan_id: number } | { job_id: number } | { decision_id: string };

export interface OpenTicket {
  source: TicketSource;
  title?: string;
  severity?: TicketSeverity;
  note?: string;
  assignee?: string;
  external_ref?: string;
  actor: string | null;
  opened_by: string;
}

export interface Ticket {
  ticket_id: string;
  status: TicketStatus;
  severity: TicketSeverity;
  title: string;
  source:
    | { type: 'scan'; scan_id: number | null; domain: string; target_url: string; score: number; risk_level: string }
    | { type: 'decision'; decision_id: string; surface: string; verdict: string; endpoint: string };
  flags: string[];
  evidence_pack: { id: string; sha256: string } | null;
  decision_sha256: string | null;
  actor: string | null;
  opened_by: string;
  assignee: string | null;
  external_ref: string | null;
  note: string | null;
  history: { at: string; status: TicketStatus; by: string; note: string | null }[];
  created_at: string;
  updated_at: string;
}

/** The source is not in the caller's workspace (or does not exist): a 404, never a hint that it exists elsewhere. */
export class TicketSourceNotFound extends Error {}
/** A job that has not produced a scan yet. */
export class TicketSourceNotReady extends Error {}

const SEVERITY_OF_RISK: Record<string, TicketSeverity> = {
  low: 'low',
  medium: 'medium',
  high: 'high',
  critical: 'critical',
};
const SEVERITY_OF_VERDICT: Record<string, TicketSeverity> = {
  block: 'high',
  approval_required: 'medium',
  warn: 'medium',
  allow: 'low',
};

interface TicketRow {
  id: string;
  workspace_id: string;
  source_type: 'scan' | 'decision';
  scan_id: string | null;
  decision_id: string | null;
  title: string;
  severity: TicketSeverity;
  status: TicketStatus;
  flags: string[];
  source: Record<string, unknown>;
  evidence_pack_id: string | null;
  evidence_pack_sha256: string | null;
  decision_sha256: string | null;
  actor: string | null;
  opened_by: string;
  assignee: string | null;
  external_ref: string | null;
  note: string | null;
  history: Ticket['history'];
  created_at: Date;
  updated_at: Date;
}

/** POST/GET/PATCH /ticketbridge/tickets: every read and write is filtered by the caller's workspace. */
@injectable()
export class TicketService {
  constructor(
    @inject(Knex) private readonly knex: Knex,
    @inject(EventBus) private readonly events: EventBus,
  ) {}

  /** Opens a ticket, or returns the one already open for that source (`created: false`). */
  async open(workspaceId: string, req: OpenTicket): Promise<{ ticket: Ticket; created: boolean }> {
    const fields = await this.sourceFields(workspaceId, req.source);
    const existing = await this.findBySource(workspaceId, fields);
    if (existing) return { ticket: view(existing), created: false };
    const now = new Date().toISOString();
    const inserted: TicketRow[] = await this.knex('tickets')
      .insert({
        workspace_id: workspaceId,
        ...fields,
        title: req.title ?? fields.title,
        severity: req.severity ?? fields.severity,
        status: 'open',
        actor: req.actor,
        opened_by: req.opened_by,
        assignee: req.assignee ?? null,
        external_ref: req.external_ref ?? null,
        note: req.note ?? null,
        history: JSON.stringify([{ at: now, status: 'open', by: req.opened_by, note: req.note ?? null }]),
      })
      .onConflict()
      .ignore()
      .returning('*');
    if (!inserted[0]) {
      // A concurrent opener won the race for this source: theirs is the ticket.
      const row = await this.findBySource(workspaceId, fields);
      return { ticket: view(row!), created: false };
    }
    const ticket = view(inserted[0]);
    await this.events.publish('ticket.created', workspaceId, { ticket });
    return { ticket, created: true };
  }

  async get(workspaceId: string, id: string): Promise<Ticket | undefined> {
    if (!UUID.test(id)) return undefined;
    const row: TicketRow | undefined = await this.knex('tickets').where({ workspace_id: workspaceId, id }).first();
    return row && view(row);
  }

  async list(
    workspaceId: string,
    filter: { status?: TicketStatus[]; severity?: TicketSeverity[]; limit: number },
  ): Promise<{ tickets: Ticket[]; meta: { limit: number; counts: Record<TicketStatus, number> } }> {
    let q = this.knex('tickets').where({ workspace_id: workspaceId });
    if (filter.status?.length) q = q.whereIn('status', filter.status);
    if (filter.severity?.length) q = q.whereIn('severity', filter.severity);
    const rows: TicketRow[] = await q.orderBy('created_at', 'desc').orderBy('id').limit(filter.limit);
    const counted: { status: TicketStatus; n: string }[] = await this.knex('tickets')
      .where({ workspace_id: workspaceId })
      .groupBy('status')
      .select('status', this.knex.raw('count(*) as n'));
    const counts = Object.fromEntries(TICKET_STATUSES.map((s) => [s, 0])) as Record<TicketStatus, number>;
    for (const c of counted) counts[c.status] = Number(c.n);
    return { tickets: rows.map(view), meta: { limit: filter.limit, counts } };
  }

  /** Status, assignee, external reference and note changes; each status change is appended to the history. */
  async update(
    workspaceId: string,
    id: string,
    patch: { status?: TicketStatus; assignee?: string | null; external_ref?: string | null; note?: string },
    by: string,
  ): Promise<Ticket | undefined> {
    if (!UUID.test(id)) return undefined;
    return this.knex.transaction(async (trx) => {
      const row: TicketRow | undefined = await trx('tickets')
        .where({ workspace_id: workspaceId, id })
        .forUpdate()
        .first();
      if (!row) return undefined;
      const changes: Record<string, unknown> = { updated_at: trx.fn.now() };
      if (patch.assignee !== undefined) changes.assignee = patch.assignee;
      if (patch.external_ref !== undefined) changes.external_ref = patch.external_ref;
      if (patch.note !== undefined) changes.note = patch.note;
      if ((patch.status && patch.status !== row.status) || patch.note !== undefined) {
        const entry = {
          at: new Date().toISOString(),
          status: patch.status ?? row.status,
          by,
          note: patch.note ?? null,
        };
        changes.history = JSON.stringify([...row.history, entry]);
        if (patch.status) changes.status = patch.status;
      }
      const [updated]: TicketRow[] = await trx('tickets').where({ id }).update(changes).returning('*');
      return view(updated!);
    });
  }

  private async findBySource(workspaceId: string, fields: { scan_id: number | null; decision_id: string | null }) {
    const where = fields.scan_id !== null ? { scan_id: fields.scan_id } : { decision_id: fields.decision_id };
    return (await this.knex('tickets')
      .where({ workspace_id: workspaceId, ...where })
      .first()) as TicketRow | undefined;
  }

  private async sourceFields(workspaceId: string, source: TicketSource) {
    if ('decision_id' in source) {
      const event = UUID.test(source.decision_id)
        ? await this.knex('audit_events').where({ workspace_id: workspaceId, decision_id: source.decision_id }).first()
        : undefined;
      if (!event) throw new TicketSourceNotFound(`no decision ${source.decision_id} in this workspace`);
      return {
        source_type: 'decision' as const,
        scan_id: null,
        decision_id: source.decision_id,
        title: `${event.outcome} ${event.surface} decision${event.actor ? ` for ${event.actor}` : ''}`,
        severity: SEVERITY_OF_VERDICT[event.outcome] ?? 'medium',
        flags: event.flags as string[],
        source: JSON.stringify({
          type: 'decision',
          decision_id: source.decision_id,
          surface: event.surface,
          verdict: event.outcome,
          endpoint: event.endpoint,
        }),
        evidence_pack_id: null,
        evidence_pack_sha256: null,
        decision_sha256: event.decision_sha256 as string,
      };
    }
    let scanId: number;
    if ('job_id' in source) {
      const job = await this.knex('scan_jobs').where({ workspace_id: workspaceId, id: source.job_id }).first();
      if (!job) throw new TicketSourceNotFound(`no scan job ${source.job_id} in this workspace`);
      if (!job.result_scan_id)
        throw new TicketSourceNotReady(`scan job ${source.job_id} is ${job.status}: no scan yet`);
      scanId = Number(job.result_scan_id);
    } else {
      scanId = source.scan_id;
    }
    const scan = await this.knex('scans')
      .where({ workspace_id: workspaceId, id: scanId })
      .first('domain', 'target_url', 'score', 'risk_level', 'flags', 'evidence_pack_id');
    if (!scan) throw new TicketSourceNotFound(`no scan ${scanId} in this workspace`);
    const pack = scan.evidence_pack_id
      ? await this.knex('evidence_packs').where({ id: scan.evidence_pack_id }).first('id', 'sha256')
      : undefined;
    return {
      source_type: 'scan' as const,
      scan_id: scanId,
      decision_id: null,
      title: `${scan.risk_level} risk: ${scan.domain}`,
      severity: SEVERITY_OF_RISK[scan.risk_level] ?? 'medium',
      flags: scan.flags as string[],
      source: JSON.stringify({
        type: 'scan',
        scan_id: scanId,
        domain: scan.domain,
        target_url: scan.target_url,
        score: scan.score,
        risk_level: scan.risk_level,
      }),
      evidence_pack_id: pack?.id ?? null,
      evidence_pack_sha256: pack?.sha256 ?? null,
      decision_sha256: null,
    };
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function view(r: TicketRow): Ticket {
  return {
    ticket_id: r.id,
    status: r.status,
    severity: r.severity,
    title: r.title,
    source: r.source as Ticket['source'],
    flags: r.flags,
    evidence_pack:
      r.evidence_pack_id && r.evidence_pack_sha256 ? { id: r.evidence_pack_id, sha256: r.evidence_pack_sha256 } : null,
    decision_sha256: r.decision_sha256,
    actor: r.actor,
    opened_by: r.opened_by,
    assignee: r.assignee,
    external_ref: r.external_ref,
    note: r.note,
    history: r.history,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}
