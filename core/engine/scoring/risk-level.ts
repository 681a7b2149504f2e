import type { RiskLevels } from '../rules/ruleset.ts';

export type RiskLevel = 'low' | 'medium' | 'high' | 'critical';

/** The highest level whose threshold the score reaches (rules/risk-levels.json). */
export function riskLevelOf(score: number, levels: RiskLevels): RiskLevel {
  if (score >= levels.critical) return 'critical';
  if (score >= levels.high) return 'high';
  if (score >= levels.medium) return 'medium';
  return 'low';
}
