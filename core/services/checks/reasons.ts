import type { Decision } from '../../engine/decisions/decision-engine.ts';

/** The winning rule first (`name: reason`), then any other matched rules, so a reader sees why and what else. */
export function reasonsOf<V extends string>(decision: Decision<V>, whenNothingMatched: string): string[] {
  if (!decision.winner) return [whenNothingMatched];
  const rest = decision.matched.filter((m) => m !== decision.winner && m.name !== decision.winner?.name);
  return [
    `${decision.winner.name}: ${decision.winner.reason}`,
    ...rest.map((m) => `${m.name} (${m.verdict}): ${m.reason}`),
  ];
}
