import { inject, injectable } from 'tsyringe';
import type { DecisionContract } from '../contract/decision-contract.ts';
import { DecisionEngines } from '../decisions/decision-engines.ts';
import { DetectorSet } from '../pipeline/run-detectors.ts';
import { Ruleset, type Verdict } from '../rules/ruleset.ts';
import { firedFlags, injectionSummary, screenScore } from './injection-summary.ts';
import { type CallContext, DecisionSealer, type Sealed } from './seal.ts';

export interface ContentCheckInput {
  content: string;
  url?: string;
}

export interface ContentCheckResponse {
  agent_decision: Verdict;
  injection_detected: boolean;
  severity: 'none' | 'low' | 'high';
  score: number;
  flags: string[];
  findings: { category: string; marker: string; severity: 'high' | 'low'; flag: string }[];
  reasons: string[];
  decision: DecisionContract;
}

@injectable()
export class ContentCheck {
  constructor(
    @inject(DetectorSet) private readonly detectors: DetectorSet,
    @inject(DecisionEngines) private readonly engines: DecisionEngines,
    @inject(Ruleset) private readonly ruleset: Ruleset,
    @inject(DecisionSealer) private readonly sealer: DecisionSealer,
  ) {}

  async check(input: ContentCheckInput, call: CallContext): Promise<{ response: ContentCheckResponse } & Sealed> {
    const runs = await this.detectors.run('agent_content', { text: input.content, url: input.url });
    const { severity, findings } = injectionSummary(runs);
    const flags = firedFlags(runs);
    const score = screenScore(severity, flags, this.ruleset.weights);

    const decision = await this.engines.for('content').decide({
      severity,
      injection_detected: findings.length > 0,
      flags,
      categories: [...new Set(findings.map((f) => f.category))].sort(),
      score,
    });
    const reasons = decision.winner
      ? [
          `${decision.winner.name}: ${decision.winner.reason}`,
          ...findings.map((f) => `${f.category} (${f.severity}): "${f.marker}"`),
        ]
      : ['no_injection_pattern: No known injection pattern matched; this does not prove the content is safe'];

    const sealed = await this.sealer.sealAsync(
      {
        surface: 'agent_content',
        verdict: decision.verdict,
        flags,
        reasons,
        input: input.content,
      },
      call,
    );
    return {
      ...sealed,
      response: {
        agent_decision: decision.verdict,
        injection_detected: findings.length > 0,
        severity,
        score,
        flags,
        findings: findings.map((f) => ({ category: f.category, marker: f.marker, severity: f.severity, flag: f.flag })),
        reasons,
        decision: sealed.decision,
      },
    };
  }
}
