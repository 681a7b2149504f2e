import { readFileSync } from 'node:fs';
import cliProgress from 'cli-progress';
import { PreflightClient, type ScanJob } from '../client/index.ts';

interface BulkOptions {
  url: string;
  key?: string;
  force: boolean;
  timeoutSeconds: number;
  /** Domains per request: the service's BULK_SCAN_LIMIT (default 50). */
  batch: number;
}

interface JobState {
  domain: string;
  scan_id?: number;
  status: string;
  result?: ScanJob['result'];
  error?: string;
}

const TERMINAL = new Set(['done', 'failed', 'dead_letter']);

/**
 * `preflight bulk FILE`: submits the domains (one per line, `#` comments) through POST /scan/bulk in batches of
 * the server's limit, follows every job to a terminal state with a progress bar on stderr, and prints a results
 * table on stdout. Talks to a running service over HTTP (PREFLIGHT_URL, PREFLIGHT_API_KEY).
 */
export async function runBulk(file: string, opts: BulkOptions): Promise<number> {
  const domains = readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  if (domains.length === 0) throw new Error(`${file} lists no domains`);
  const client = new PreflightClient({ baseUrl: opts.url, ...(opts.key ? { apiKey: opts.key } : {}) });

  const jobs: JobState[] = [];
  for (let i = 0; i < domains.length; i += opts.batch) {
    const answer = await client.scanBulk(domains.slice(i, i + opts.batch), { force_scan: opts.force });
    for (const j of answer.jobs) jobs.push({ domain: j.domain, scan_id: j.scan_id, status: j.status });
    for (const e of answer.errors) jobs.push({ domain: String(e.input), status: 'rejected', error: e.error });
  }

  const tracked = jobs.filter((j) => j.scan_id !== undefined);
  const bar = new cliProgress.SingleBar(
    { format: 'scanning [{bar}] {value}/{total} done | {failed} failed', stream: process.stderr, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(tracked.length, 0, { failed: 0 });
  const deadline = Date.now() + opts.timeoutSeconds * 1000;
  while (tracked.some((j) => !TERMINAL.has(j.status)) && Date.now() < deadline) {
    for (const j of tracked.filter((x) => !TERMINAL.has(x.status))) {
      const view: ScanJob = await client.job(String(j.scan_id));
      j.status = view.status;
      j.result = view.result;
      j.error = view.error;
    }
    const finished = tracked.filter((j) => TERMINAL.has(j.status));
    bar.update(finished.length, { failed: finished.filter((j) => j.status !== 'done').length });
    if (finished.length < tracked.length) await new Promise((r) => setTimeout(r, 1000));
  }
  bar.stop();

  const rows = jobs.map((j) => [
    j.domain,
    j.scan_id === undefined ? '-' : String(j.scan_id),
    j.status,
    j.result?.risk_level ?? '',
    j.result ? String(j.result.score) : '',
    j.result ? j.result.flags.join(' ') : (j.error ?? ''),
  ]);
  const head = ['domain', 'scan_id', 'status', 'risk', 'score', 'flags / error'];
  const widths = head.map((h, c) => Math.min(60, Math.max(h.length, ...rows.map((r) => r[c]!.length))));
  const line = (cells: string[]) => cells.map((cell, c) => cell.slice(0, 200).padEnd(widths[c]!)).join('  ');
  process.stdout.write(`${line(head)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const r of rows) process.stdout.write(`${line(r)}\n`);
  const unfinished = tracked.filter((j) => !TERMINAL.has(j.status)).length;
  if (unfinished > 0) process.stderr.write(`${unfinished} job(s) still running after ${opts.timeoutSeconds}s\n`);
  return unfinished > 0 ? 1 : 0;
}
