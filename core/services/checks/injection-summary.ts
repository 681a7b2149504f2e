import type { AgentScreen } from '../../detector.ts';
import type { PluginCatalog } from '../../engine/pipeline/plugin-catalog.ts';
import type { DetectorRun } from '../../engine/pipeline/run-detectors.ts';
import type { Scorer } from '../../engine/scoring/score-breakdown.ts';

/** What the agent screen (the plugin providing `agentScreen`) found, as every agent surface reports it. */
export type InjectionSummary = AgentScreen;

export function injectionSummary(runs: readonly DetectorRun[]): InjectionSummary {
  const data = runs.find((r) => r.provides?.agentScreen)?.output?.data as InjectionSummary | undefined;
  return { severity: data?.severity ?? 'none', findings: data?.findings ?? [] };
}

export function firedFlags(runs: readonly DetectorRun[]): string[] {
  return [...new Set(runs.flatMap((r) => r.output?.findings.map((f) => f.flag) ?? []))].sort();
}

/** flag → what fired it and why, for `flag_explanations`: the declaring plugin's text and the agent surfaces' weight. */
export function flagExplanations(
  runs: readonly DetectorRun[],
  catalog: Pick<PluginCatalog, 'declarationOf'>,
  scorer: Pick<Scorer, 'agentWeightOf'>,
): Record<string, { description: string; detector: string; weight: number; evidence: string[] }> {
  const out: Record<string, { description: string; detector: string; weight: number; evidence: string[] }> = {};
  for (const run of runs) {
    for (const f of run.output?.findings ?? []) {
      const meta = catalog.declarationOf(f.flag);
      out[f.flag] ??= {
        description: meta?.description ?? '',
        detector: meta?.pluginId ?? run.pluginId,
        weight: scorer.agentWeightOf(f.flag),
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
