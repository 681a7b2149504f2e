import type { UsageReport } from '../core/services/usage/usage-report.ts';

/** The usage report as a table: one line per day, one column per surface seen in the period. */
export function formatUsage(report: UsageReport): string {
  const surfaces = Object.keys(report.totals.checks).sort();
  const header = ['day', ...surfaces, 'scans', 'scan quota', 'force scans'];
  const rows = report.days.map((d) => [
    d.day,
    ...surfaces.map((s) => String(d.checks[s] ?? 0)),
    String(d.scans),
    String(d.quota.scan),
    String(d.quota.force_scan),
  ]);
  rows.push([
    'total',
    ...surfaces.map((s) => String(report.totals.checks[s] ?? 0)),
    String(report.totals.scans),
    String(report.totals.quota.scan),
    String(report.totals.quota.force_scan),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [
    `${report.workspace} (plan ${report.plan}): scan quota ${report.today.scan_quota_used}/${report.limits.scan_quota_daily} used today`,
    line(header),
    ...rows.map(line),
    '',
  ].join('\n');
}
