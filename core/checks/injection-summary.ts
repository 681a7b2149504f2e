import type { AgentScreen } from '../detector.ts';
import type { DetectorRun } from '../pipeline/run-detectors.ts';

export type ScreenSeverity = AgentScreen['severity'];

/** What the agent screen (the plugin providing `agentScreen`) found, as every agent surface reports it. */
export type InjectionSummary = AgentScreen;

export function injectionSummary(runs: readonly DetectorRun[]): InjectionSummary {
  const data = runs.find((r) => r.provides?.agentScreen)?.output?.data as InjectionSummary | undefined;
  return { severity: data?.severity ?? 'none', findings: data?.findings ?? [] };
}

/** Severity of the screen → score. A high-severity hit is the worst case, 100 (spec). */
export function screenScore(
  severity: ScreenSeverity,
  flags: readonly string[],
  weights: Record<string, number>,
): number {
  if (severity === 'high') return 100;
  if (severity === 'none') return 0;
  return Math.min(
    99,
    flags.reduce((sum, f) => sum + (weights[f] ?? 0), 0),
  );
}

export function firedFlags(runs: readonly DetectorRun[]): string[] {
  return [...new Set(runs.flatMap((r) => r.output?.findings.map((f) => f.flag) ?? []))].sort();
}

/** flag → what fired it and why, for `flag_explanations`. */
export function flagExplanations(
  runs: readonly DetectorRun[],
  describe: (flag: string) => { description: string; pluginId: string } | undefined,
  weights: Record<string, number>,
): Record<string, { description: string; detector: string; weight: number; evidence: string[] }> {
  const out: Record<string, { description: string; detector: string; weight: number; evidence: string[] }> = {};
  for (const run of runs) {
    for (const f of run.output?.findings ?? []) {
      const meta = describe(f.flag);
      out[f.flag] ??= {
        description: meta?.description ?? '',
        detector: meta?.pluginId ?? run.pluginId,
        weight: weights[f.flag] ?? 0,
        evidence: [],
      };
      if (f.detail && !out[f.flag]!.evidence.includes(f.detail)) out[f.flag]!.evidence.push(f.detail);
    }
  }
  return out;
}

/** The `prompt_injection` block of the action and tool-call responses. */
export function promptInjectionView(injection: InjectionSummary) {
  return {
    detected: injection.findings.length > 0,
    severity: injection.severity,
    findings: injection.findings.map(({ category, marker, severity, field }) => ({
      category,
      marker,
      severity,
      field,
    })),
  };
}
