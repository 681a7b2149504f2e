import { inject, injectable } from 'tsyringe';
import type { DecisionContract } from '../../engine/contract/decision-contract.ts';
import type { Decision } from '../../engine/decisions/decision-engine.ts';
import type { Verdict } from '../../engine/rules/ruleset.ts';
import { Scorer } from '../../engine/scoring/score-breakdown.ts';
import { AgentSurface } from './agent-surface.ts';
import type { CallContext, Sealed } from './seal.ts';

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
    @inject(AgentSurface) private readonly surface: AgentSurface,
    @inject(Scorer) private readonly scorer: Scorer,
  ) {}

  async check(input: ContentCheckInput, call: CallContext): Promise<{ response: ContentCheckResponse } & Sealed> {
    const { flags, injection, assessment, verdict, reasons, sealed } = await this.surface.evaluate(
      {
        surface: 'agent_content',
        rules: 'content',
        detect: { text: input.content, url: input.url },
        assess: async ({ flags, injection: { severity, findings } }) => {
          const score = await this.scorer.screenPoints(severity, flags);
          return {
            score,
            facts: {
              severity,
              injection_detected: findings.length > 0,
              flags,
              categories: [...new Set(findings.map((f) => f.category))].sort(),
              score,
            },
            reasons: (decision: Decision) =>
              decision.winner
                ? [
                    `${decision.winner.name}: ${decision.winner.reason}`,
                    ...findings.map((f) => `${f.category} (${f.severity}): "${f.marker}"`),
                  ]
                : ['no_injection_pattern: No known injection pattern matched; this does not prove the content is safe'],
            input: input.content,
          };
        },
      },
      call,
    );
    const { severity, findings } = injection;
    return {
      ...sealed,
      response: {
        agent_decision: verdict,
        injection_detected: findings.length > 0,
        severity,
        score: assessment.score,
        flags,
        findings: findings.map((f) => ({ category: f.category, marker: f.marker, severity: f.severity, flag: f.flag })),
        reasons,
        decision: sealed.decision,
      },
    };
  }
}
