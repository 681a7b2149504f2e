import { inject, injectable } from 'tsyringe';
import type { DetectionContext } from '../../detector.ts';
import type { Decision } from '../../engine/decisions/decision-engine.ts';
import { DecisionEngines } from '../../engine/decisions/decision-engines.ts';
import { type DetectorRun, DetectorSet } from '../../engine/pipeline/run-detectors.ts';
import type { DecisionFacts, DecisionSurface, Verdict } from '../../engine/rules/ruleset.ts';
import { firedFlags, type InjectionSummary, injectionSummary } from './injection-summary.ts';
import { type CallContext, DecisionSealer, type Sealed } from './seal.ts';

type AgentSurfaceName = 'agent_content' | 'agent_action' | 'agent_tool_call';

/** What the detectors of an agent surface said: their runs, the flags they fired and the agent screen. */
export interface SurfaceScreen {
  runs: DetectorRun[];
  flags: string[];
  injection: InjectionSummary;
}

/** A surface's own reading of the screen: the facts its rules decide on, how it words reasons, what it seals. */
export interface SurfaceAssessment<S extends DecisionSurface = DecisionSurface> {
  facts: DecisionFacts<S>;
  reasons(decision: Decision): string[];
  /** The canonical input the decision contract hashes. */
  input: string;
  maxTtlSeconds?: number;
}

export interface EvaluatedSurface<A> extends SurfaceScreen {
  assessment: A;
  verdict: Verdict;
  reasons: string[];
  sealed: Sealed;
}

/**
 * The sequence every agent check shares: run the surface's detectors → flags and agent screen → the surface's own
 * assessment (score, facts) → its decision rules (rules/decisions/*.json, memoised engine) → reasons → sealed
 * decision contract. The checks differ only in what they assess and how they shape their response.
 */
@injectable()
export class AgentSurface {
  constructor(
    @inject(DetectorSet) private readonly detectors: DetectorSet,
    @inject(DecisionEngines) private readonly engines: DecisionEngines,
    @inject(DecisionSealer) private readonly sealer: DecisionSealer,
  ) {}

  async evaluate<S extends DecisionSurface, A extends SurfaceAssessment<S>>(
    spec: {
      surface: AgentSurfaceName;
      rules: S;
      detect: Omit<DetectionContext, 'surface' | 'signal'>;
      /** Flags raised outside this surface's detectors (a deep scan's), folded into the decision. */
      extraFlags?: readonly string[];
      /** Called just before the detectors run, to start work that runs alongside them (a reputation lookup). */
      alongside?: () => void;
      assess(screen: SurfaceScreen): A | Promise<A>;
    },
    call: CallContext,
  ): Promise<EvaluatedSurface<A>> {
    // Started first: synchronous detectors run inside `run`, and the lookup's I/O should overlap them.
    spec.alongside?.();
    const runs = await this.detectors.run(spec.surface, spec.detect);
    const fired = firedFlags(runs);
    const flags = spec.extraFlags ? [...new Set([...fired, ...spec.extraFlags])].sort() : fired;
    const screen: SurfaceScreen = { runs, flags, injection: injectionSummary(runs) };
    const assessment = await spec.assess(screen);
    const decision = await this.engines.for(spec.rules).decide(assessment.facts);
    const reasons = assessment.reasons(decision);
    const sealed = await this.sealer.sealAsync(
      {
        surface: spec.surface,
        verdict: decision.verdict,
        flags,
        reasons,
        input: assessment.input,
        ...(assessment.maxTtlSeconds !== undefined ? { maxTtlSeconds: assessment.maxTtlSeconds } : {}),
      },
      call,
    );
    return { ...screen, assessment, verdict: decision.verdict, reasons, sealed };
  }
}
