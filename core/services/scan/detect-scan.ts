import type { Finding } from '../../detector.ts';
import type { DetectorRun, DetectorSet } from '../../engine/pipeline/run-detectors.ts';
import type { CompositeRule } from '../../engine/rules/ruleset.ts';
import { compositeFindings } from '../../engine/scoring/composites.ts';
import type { ScanEvidence } from './evidence.ts';

export interface ScanDetection {
  runs: DetectorRun[];
  /** Every finding, the composites last, each with the detector (or `composites`) that raised it. */
  findings: (Finding & { source: string })[];
}

/** Runs the scan-surface detectors over gathered evidence, then derives the composite flags. */
export async function detectScan(
  detectors: DetectorSet,
  composites: readonly CompositeRule[],
  evidence: ScanEvidence,
): Promise<ScanDetection> {
  const runs = await detectors.run('scan', { url: evidence.target.url.href, target: evidence.target, evidence });
  const findings = runs.flatMap((r) => (r.output?.findings ?? []).map((f) => ({ ...f, source: r.pluginId })));
  const fired = new Set(findings.map((f) => f.flag));
  for (const f of compositeFindings(fired, composites)) findings.push({ ...f, source: 'composites' });
  return { runs, findings };
}
