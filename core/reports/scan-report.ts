import type { Knex } from 'knex';
import type { PluginCatalog } from '../engine/pipeline/plugin-catalog.ts';
import type { ScanResult } from '../services/scan/scan-service.ts';
import { reportHtml } from './report-html.ts';

export type ReportLookup =
  | { ok: true; html: string; scanId: number }
  | { ok: false; reason: 'not_found' }
  /** Retention compacted the row to the lean history payload: the evidence a report is made of is gone. */
  | { ok: false; reason: 'compacted' };

const SCREENSHOT_URL = /^\/screenshots\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.png$/;

/** Builds the report HTML for one of a workspace's scans, straight from what the scan stored. */
export class ScanReports {
  constructor(
    private readonly knex: Knex,
    private readonly catalog: PluginCatalog,
  ) {}

  async html(scanId: number, workspaceId: string): Promise<ReportLookup> {
    // Scoped in the query itself, so another workspace's scan is indistinguishable from a missing one.
    const row = await this.knex('scans')
      .where({ id: scanId, workspace_id: workspaceId })
      .first('id', 'result', 'compacted', 'created_at');
    if (!row) return { ok: false, reason: 'not_found' };
    if (row.compacted) return { ok: false, reason: 'compacted' };
    const stored = (row.result ?? {}) as ScanResult;
    // Rows are authoritative for the id; scanned_at falls back to the row for results stored without it.
    const result: ScanResult = {
      ...stored,
      scan_id: Number(row.id),
      scanned_at: stored.scanned_at ?? new Date(row.created_at).toISOString(),
    };
    const screenshotPng = await this.screenshot(result, Number(row.id), workspaceId);
    const html = reportHtml({
      result,
      screenshotPng,
      describe: (flag) => this.catalog.declarationOf(flag)?.description,
    });
    return { ok: true, html, scanId: Number(row.id) };
  }

  private async screenshot(result: ScanResult, scanId: number, workspaceId: string): Promise<Buffer | undefined> {
    const visual = (result.detailed_results as { visual?: { data?: { screenshot_url?: unknown } } } | undefined)?.visual
      ?.data;
    const url = typeof visual?.screenshot_url === 'string' ? visual.screenshot_url : undefined;
    const id = url ? SCREENSHOT_URL.exec(url)?.[1] : undefined;
    if (!id) return undefined;
    // Matching scan and workspace too: the URL comes from stored JSON, and only this scan's own image belongs here.
    const shot = await this.knex('scan_screenshots')
      .where({ id, scan_id: scanId, workspace_id: workspaceId })
      .first('png');
    return shot?.png ? Buffer.from(shot.png) : undefined;
  }
}
