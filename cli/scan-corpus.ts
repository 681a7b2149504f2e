// `preflight scan-corpus SITES_DIR LABELS.json`: full lab scans of a labelled site corpus (the path of
// `preflight scan HOST --lab DIR`: one lab for the whole corpus, source caches off), a per-label table
// (n, high/critical count and rate, expected flags raised) and per-site rows, or one JSON object.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { createPreflight } from '../app/index.ts';
import { loadConfig } from '../core/config.ts';
import { Ruleset } from '../core/engine/rules/ruleset.ts';
import { ScanService } from '../core/services/scan/scan-service.ts';
import { scanTargetOf } from '../server/requests/scan.ts';

/** LABELS.json: the sites.json shape of the shared eval corpus (extra keys such as `family` are carried along). */
export type CorpusLabels = Record<string, { label: string; expect_flags?: string[]; [k: string]: unknown }>;

export interface CorpusRow {
  host: string;
  label: string;
  score: number;
  risk_level: string;
  flagged: boolean;
  flags: string[];
  missing_flags: string[];
  reconciles: boolean;
  degraded?: boolean;
  error?: string;
}

export interface CorpusLabelSummary {
  label: string;
  n: number;
  high_or_critical: number;
  rate: number;
  expect_flags_met: number;
}

export interface CorpusReport {
  sites_dir: string;
  browser: boolean;
  rules_dir: string;
  ruleset_hash: string;
  labels: CorpusLabelSummary[];
  sites: CorpusRow[];
}

const DANGEROUS = new Set(['high', 'critical']);

export async function runScanCorpus(
  sitesDir: string,
  labelsFile: string,
  opts: { browser: boolean; concurrency: number; rulesDir?: string },
): Promise<CorpusReport> {
  const labels: CorpusLabels = JSON.parse(readFileSync(labelsFile, 'utf8'));
  const base = loadConfig();
  // A rules folder of its own (its local/ overlay included), as `replay --rules`: ablations weigh a flag 0 there.
  const config = opts.rulesDir ? { ...base, rulesDir: opts.rulesDir } : base;
  const app = await createPreflight({
    ...config,
    labSitesDir: sitesDir,
    sources: { ...config.sources, cacheTtlMs: 0 },
  });
  const rows: CorpusRow[] = [];
  const rulesetHash = app.container.resolve(Ruleset).hash;
  try {
    const scans = app.container.resolve(ScanService);
    const hosts = Object.keys(labels).sort();
    let next = 0;
    const worker = async () => {
      while (next < hosts.length) {
        const host = hosts[next++]!;
        const { label, expect_flags = [] } = labels[host]!;
        try {
          const r = await scans.scan(
            scanTargetOf(host),
            { force_scan: true, browser: opts.browser, unmetered: true },
            {
              workspaceId: null,
              campaignTaggingEnabled: false,
              actor: 'scan-corpus',
              requestId: `scan-corpus-${host}`,
            },
          );
          const degraded = r.evidence?.degraded;
          rows.push({
            host,
            label,
            score: r.score,
            risk_level: r.risk_level,
            flagged: DANGEROUS.has(r.risk_level),
            flags: r.flags,
            missing_flags: expect_flags.filter((f) => !r.flags.includes(f)),
            reconciles: r.score_breakdown.reconciles,
            ...(degraded ? { degraded } : {}),
          });
        } catch (err) {
          rows.push({
            host,
            label,
            score: 0,
            risk_level: 'error',
            flagged: false,
            flags: [],
            missing_flags: expect_flags,
            reconciles: false,
            error: err instanceof Error ? err.message : String(err),
          });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, opts.concurrency) }, worker));
  } finally {
    await app.close();
  }
  rows.sort((a, b) => a.label.localeCompare(b.label) || a.host.localeCompare(b.host));
  const byLabel = new Map<string, CorpusRow[]>();
  for (const r of rows) byLabel.set(r.label, [...(byLabel.get(r.label) ?? []), r]);
  const summaries = [...byLabel].map(([label, rs]) => {
    const flagged = rs.filter((r) => r.flagged).length;
    return {
      label,
      n: rs.length,
      high_or_critical: flagged,
      rate: rs.length === 0 ? 0 : flagged / rs.length,
      expect_flags_met: rs.filter((r) => r.missing_flags.length === 0).length,
    };
  });
  return {
    sites_dir: sitesDir,
    browser: opts.browser,
    rules_dir: config.rulesDir,
    ruleset_hash: rulesetHash,
    labels: summaries,
    sites: rows,
  };
}

export function formatScanCorpus(report: CorpusReport): string {
  const lines = [
    `scan-corpus ${report.sites_dir} (${report.browser ? 'with Chromium' : 'no browser'}), rules ${report.rules_dir} (ruleset_hash ${report.ruleset_hash})`,
    '',
    '| label | n | high/critical | rate | expect_flags met |',
    '|---|---|---|---|---|',
    ...report.labels.map(
      (l) =>
        `| ${l.label} | ${l.n} | ${l.high_or_critical} | ${(l.rate * 100).toFixed(1)} % | ${l.expect_flags_met}/${l.n} |`,
    ),
    '',
    '| host | label | score | risk | flags | missing expected |',
    '|---|---|---|---|---|---|',
    ...report.sites.map(
      (r) =>
        `| ${r.host} | ${r.label} | ${r.score} | ${r.risk_level}${r.degraded ? ' (degraded)' : ''} | ${r.error ? `error: ${r.error}` : r.flags.join(' ')} | ${r.missing_flags.join(' ')} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

export function registerScanCorpus(program: Command): void {
  program
    .command('scan-corpus')
    .description(
      'full lab scans of a labelled site corpus (one lab for all): per-label high/critical rate and per-site rows',
    )
    .argument('<sites_dir>', 'site folders (DESIGN.md §7 format)')
    .argument('<labels>', 'LABELS.json: {host: {label, expect_flags}}')
    .option('--rules <dir>', 'rules folder to judge under (default PREFLIGHT_RULES_DIR or rules/)')
    .option('--json', 'print one JSON object instead of tables', false)
    .option('--no-browser', 'scan without Chromium')
    .option('--concurrency <n>', 'scans at once', (v) => Number.parseInt(v, 10), 2)
    .action(
      async (
        sitesDir: string,
        labels: string,
        opts: { json: boolean; browser: boolean; concurrency: number; rules?: string },
      ) => {
        const report = await runScanCorpus(path.resolve(sitesDir), path.resolve(labels), {
          browser: opts.browser,
          concurrency: opts.concurrency,
          ...(opts.rules ? { rulesDir: path.resolve(opts.rules) } : {}),
        });
        process.stdout.write(opts.json ? `${JSON.stringify(report)}\n` : formatScanCorpus(report));
        if (report.sites.length === 0 || report.sites.some((r) => r.error)) process.exitCode = 1;
      },
    );
}
