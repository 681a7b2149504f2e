import type { DecisionFacts, DecisionSurface, Ruleset } from '../rules/ruleset.ts';
import { type Decision, DecisionEngine } from './decision-engine.ts';

/** A surface's engine, typed to take exactly that surface's facts (DECISION_FACTS). */
export interface SurfaceEngine<S extends DecisionSurface> {
  decide(facts: DecisionFacts<S>): Promise<Decision>;
}

/** One memoising engine per decision surface, built once from the loaded ruleset. */
export class DecisionEngines {
  private readonly engines: Record<DecisionSurface, DecisionEngine>;

  constructor(ruleset: Ruleset) {
    this.engines = {
      content: new DecisionEngine(ruleset.decisions.content),
      action: new DecisionEngine(ruleset.decisions.action),
      tool_call: new DecisionEngine(ruleset.decisions.tool_call),
      url_verdict: new DecisionEngine(ruleset.decisions.url_verdict),
    };
  }

  for<S extends DecisionSurface>(surface: S): SurfaceEngine<S> {
    return this.engines[surface];
  }
}
