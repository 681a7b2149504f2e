import { AsyncLocalStorage } from 'node:async_hooks';
import { inject, injectable } from 'tsyringe';
import { Ruleset } from '../../engine/rules/ruleset.ts';
import { Knex } from '../../platform/db/knex-token.ts';
import type { ScanHistory, ScanHistoryMatch } from './evidence.ts';

export type FingerprintKind = 'cert_sha256' | 'favicon_hash' | 'ip';

/**
 * Whose history the detectors of the current scan may read. Detectors get the history as a plugin dependency,
 * created once; the scan sets the workspace around its detector run, so every query inside it is scoped without
 * each plugin having to carry the workspace. `null` is the anonymous bucket.
 */
const scope = new AsyncLocalStorage<{ workspaceId: string | null }>();

/** Runs `fn` (a scan's detectors) against `workspaceId`'s own scan history only. */
export function withScanHistoryOf<T>(workspaceId: string | null, fn: () => Promise<T>): Promise<T> {
  return scope.run({ workspaceId }, fn);
}

/**
 * ScanHistory over the fingerprints_seen table: every scan records its fingerprints under its workspace; detectors
 * query the scanning workspace's rows only (outside a scan scope: the anonymous bucket, never another tenant's).
 */
@injectable()
export class PostgresScanHistory implements ScanHistory {
  /** Risk levels that make an earlier scan count as flagged (rules/scan-history.json). */
  private readonly flagged: readonly string[];

  constructor(
    @inject(Knex) private readonly knex: Knex,
    @inject(Ruleset) ruleset: Pick<Ruleset, 'scanHistory'>,
  ) {
    this.flagged = ruleset.scanHistory.flagged_risk_levels;
  }

  async flaggedWithFingerprint(kind: FingerprintKind, value: string, excludeHost: string): Promise<ScanHistoryMatch[]> {
    return this.query((q) => q.where({ kind, value }), excludeHost);
  }

  async flaggedOnAddress(ip: string, excludeHost: string, withinDays: number): Promise<ScanHistoryMatch[]> {
    return this.query(
      (q) =>
        q
          .where({ kind: 'ip', value: ip })
          .where('seen_at', '>', this.knex.raw(`now() - interval '1 day' * ?`, [withinDays])),
      excludeHost,
    );
  }

  async record(
    entry: { host: string; risk_level: string; flags: string[]; scan_id?: number; workspace_id?: string | null },
    fingerprints: Partial<Record<FingerprintKind, string | undefined>>,
  ): Promise<void> {
    const rows = Object.entries(fingerprints)
      .filter(([, value]) => value !== undefined && value !== '')
      .map(([kind, value]) => ({
        kind,
        value,
        ...entry,
        scan_id: entry.scan_id ?? null,
        workspace_id: entry.workspace_id ?? null,
      }));
    if (rows.length > 0) await this.knex('fingerprints_seen').insert(rows);
  }

  private async query(filter: (q: ReturnType<Knex>) => unknown, excludeHost: string): Promise<ScanHistoryMatch[]> {
    const workspaceId = scope.getStore()?.workspaceId ?? null;
    const q = this.knex('fingerprints_seen')
      .whereIn('risk_level', [...this.flagged])
      .whereNot('host', excludeHost)
      .distinctOn('host')
      .orderBy([{ column: 'host' }, { column: 'seen_at', order: 'desc' }])
      .select('host', 'seen_at', 'risk_level', 'flags')
      .limit(50);
    if (workspaceId === null) q.whereNull('workspace_id');
    else q.where({ workspace_id: workspaceId });
    filter(q);
    const rows = await q;
    return rows.map((r) => ({
      host: r.host,
      scanned_at: new Date(r.seen_at).toISOString(),
      risk_level: r.risk_level,
      flags: r.flags,
    }));
  }
}
