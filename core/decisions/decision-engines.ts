import type { DecisionSurface, Ruleset } from '../rules/ruleset.ts';
import { DecisionEngine } from './decision-engine.ts';

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

  for(surface: DecisionSurface): DecisionEngine {
    return this.engines[surface];
  }
}
