import { inject, injectable } from 'tsyringe';
import { Knex } from '../db/knex-token.ts';
import type { ScanHistory, ScanHistoryMatch } from './evidence.ts';

export type FingerprintKind = 'cert_sha256' | 'favicon_hash' | 'ip';

const FLAGGED = ['high', 'critical'];

/** ScanHistory over the fingerprints_seen table: every scan records its fingerprints; detectors query them. */
@injectable()
export class PostgresScanHistory implements ScanHistory {
  constructor(@inject(Knex) private readonly knex: Knex) {}

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
    entry: { host: string; risk_level: string; flags: string[]; scan_id?: number },
    fingerprints: Partial<Record<FingerprintKind, string | undefined>>,
  ): Promise<void> {
    const rows = Object.entries(fingerprints)
      .filter(([, value]) => value !== undefined && value !== '')
      .map(([kind, value]) => ({ kind, value, ...entry, scan_id: entry.scan_id ?? null }));
    if (rows.length > 0) await this.knex('fingerprints_seen').insert(rows);
  }

  private async query(filter: (q: ReturnType<Knex>) => unknown, excludeHost: string): Promise<ScanHistoryMatch[]> {
    const q = this.knex('fingerprints_seen')
      .whereIn('risk_level', FLAGGED)
      .whereNot('host', excludeHost)
      .distinctOn('host')
      .orderBy([{ column: 'host' }, { column: 'seen_at', order: 'desc' }])
      .select('host', 'seen_at', 'risk_level', 'flags')
      .limit(50);
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
