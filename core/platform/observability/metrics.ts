// Prometheus metrics of one Preflight app. Each app has its own registry (not prom-client's global one), so two
// apps in one process (tests, bench) never share or clash on counters.
import type { Knex } from 'knex';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { DependencyContainer } from 'tsyringe';
import { DetectorSet } from '../../engine/pipeline/run-detectors.ts';
import { AuditWriter } from '../../services/audit/audit-writer.ts';
import { JOB_STATUSES } from '../../services/jobs/scan-jobs.ts';
import type { ScanEvidence } from '../../services/scan/evidence.ts';
import { EvidenceCollector } from '../../services/scan/evidence-collector.ts';
import { PrincipalCache } from '../../services/workspaces/principal-cache.ts';

export class Metrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'preflight_http_requests_total',
    help: 'HTTP requests by route template, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'preflight_http_request_duration_seconds',
    help: 'HTTP request latency by route template and method',
    labelNames: ['route', 'method'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  readonly verdicts = new Counter({
    name: 'preflight_verdicts_total',
    help: 'Signed verdicts by surface and outcome (agent checks, web access) and scan risk levels (surface scan)',
    labelNames: ['surface', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly detectorDuration = new Histogram({
    name: 'preflight_detector_duration_seconds',
    help: 'Detector run time by detector id',
    labelNames: ['detector'] as const,
    buckets: [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [this.registry],
  });

  readonly detectorSkips = new Counter({
    name: 'preflight_detector_skips_total',
    help: 'Best-effort detectors that yielded nothing: timeout or error',
    labelNames: ['detector', 'reason'] as const,
    registers: [this.registry],
  });

  readonly auditBatchSize = new Histogram({
    name: 'preflight_audit_batch_rows',
    help: 'Audit events committed per batch (group commit)',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
    registers: [this.registry],
  });

  readonly sourceFailures = new Counter({
    name: 'preflight_source_failures_total',
    help: 'Evidence source lookups that failed or ran out of budget, by source',
    labelNames: ['source'] as const,
    registers: [this.registry],
  });

  readonly authCacheEvents = new Counter({
    name: 'preflight_auth_cache_events_total',
    help: 'Key/workspace cache invalidations received by NOTIFY and full flushes (listener lost or resumed)',
    labelNames: ['event'] as const,
    registers: [this.registry],
  });

  constructor(knex?: Knex) {
    collectDefaultMetrics({ register: this.registry, prefix: 'preflight_' });
    if (!knex) return;
    // Read at scrape time: the job table is the truth, and several workers may be changing it.
    new Gauge({
      name: 'preflight_scan_jobs',
      help: 'Scan jobs by state (queued is the queue depth)',
      labelNames: ['state'] as const,
      registers: [this.registry],
      async collect() {
        const rows = await knex('scan_jobs')
          .select('status')
          .count<{ status: string; count: string }[]>('* as count')
          .groupBy('status');
        const counts = new Map(rows.map((r) => [r.status, Number(r.count)]));
        for (const state of JOB_STATUSES) this.set({ state }, counts.get(state) ?? 0);
      },
    });
  }

  /** Counts the verdict a response body carries: agent checks and web access (`decision`), scans (`risk_level`). */
  countVerdict(body: unknown): void {
    if (body === null || typeof body !== 'object') return;
    const b = body as {
      decision?: { surface?: unknown; verdict?: unknown };
      risk_level?: unknown;
      score_breakdown?: unknown;
    };
    if (b.decision && typeof b.decision.surface === 'string' && typeof b.decision.verdict === 'string') {
      this.verdicts.inc({ surface: b.decision.surface, outcome: b.decision.verdict });
    } else if (b.score_breakdown && typeof b.risk_level === 'string') {
      this.verdicts.inc({ surface: 'scan', outcome: b.risk_level });
    }
  }
}

/** Sources that answered "no" rather than failing are not failures: not applicable, or not configured. */
const NOT_FAILURES = new Set(['not_applicable', 'not_configured']);

function countSourceFailures(metrics: Metrics, e: ScanEvidence): void {
  const lookups: [string, { ok: boolean; reason?: string }][] = [
    ['rdap', e.rdap],
    ['tls', e.tls],
    ['ct', e.ct],
    ['history', e.history],
    ['hostintel', e.hostIntel],
  ];
  for (const [source, lookup] of lookups) {
    if (!lookup.ok && !NOT_FAILURES.has(lookup.reason ?? '')) metrics.sourceFailures.inc({ source });
  }
  if (Object.keys(e.dns.failures).length > 0) metrics.sourceFailures.inc({ source: 'dns' });
  if (!e.page.final) metrics.sourceFailures.inc({ source: 'http' });
}

/**
 * The app's Metrics, made on first use with the app's database (for the job-state gauge) and wired to the parts
 * that report to it: detector runs, audit batches, evidence collection.
 */
export function metricsOf(container: DependencyContainer, knex: Knex): Metrics {
  if (container.isRegistered(Metrics)) return container.resolve(Metrics);
  const metrics = new Metrics(knex);
  container.registerInstance(Metrics, metrics);
  container.resolve(DetectorSet).observers.push((run) => {
    // A memoised output (core/engine/pipeline/output-memo.ts) ran no detector: no run time to record.
    if (!run.memoised) metrics.detectorDuration.observe({ detector: run.pluginId }, run.durationMs / 1000);
    if (run.skipped) {
      const reason = /exceeded its .* budget/.test(run.skipped.reason) ? 'timeout' : 'error';
      metrics.detectorSkips.inc({ detector: run.pluginId, reason });
    }
  });
  container.resolve(AuditWriter).batchObservers.push((rows) => metrics.auditBatchSize.observe(rows));
  container.resolve(EvidenceCollector).observers.push((e) => countSourceFailures(metrics, e));
  if (container.isRegistered(PrincipalCache)) {
    container.resolve(PrincipalCache).observers.push((event) => metrics.authCacheEvents.inc({ event }));
  }
  return metrics;
}
