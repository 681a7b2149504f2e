import type { DecisionSurface, Ruleset } from '../rules/ruleset.ts';
import { DecisionEngine } from './decision-engine.ts';

/** One memoising engine per decision surface, built once from the loaded ruleset. */
export class DecisionEngines {
  private readonly engines: Record<DecisionSurface, DecisionEngine>;

  constructor(ruleset: Ruleset) {
    this.engines = { content: new DecisionEngine(ruleset.decisions.content) };
  }

  for(surface: DecisionSurface): DecisionEngine {
    return this.engines[surface];
  }
}
