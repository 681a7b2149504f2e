/**
 * Trainer of the injection scorer: logistic regression (and a softmax category head) over the hashed features of
 * features.ts, by AdaGrad (per-bucket step sizes; a step costs only the sample's features), with early stopping. Reproducible by construction: a seeded PRNG orders the samples, every loop runs in a fixed
 * order, arithmetic is float64, and the weights file holds no timestamp, so the same records give the same bytes.
 *
 * Samples: a positive record is its whole normalised text. A benign record is its whole text (when short) and a few
 * of the windows the screen will score (windows.ts), so the model learns that a single benign sentence or chunk is
 * benign too: the screen takes the maximum over windows, and that is where false positives come from.
 *
 * Weights: every (source, label) group weighs its record count up to CAP and only √(n·CAP) beyond, so one big source
 * cannot dominate; the two classes then weigh the same in total.
 *
 * Long positives (an injection inside a page or an email) are represented by their best window from the second
 * round on (multiple-instance learning), so the carrier text is not learned as the attack.
 *
 * Hard negatives: the screen takes the best of hundreds of windows of a long page, so a few random windows per
 * benign record are not enough. After each round of epochs, every window of every benign training record is scored
 * with the current weights and the few that score highest join the benign samples (hard-negative mining); the next
 * round trains on them too.
 *
 * Model selection: for each L2 strength, every epoch is evaluated on the validation records with the screen's own
 * scoring (best window per segment); the kept model maximises the mean per-source recall at the threshold that
 * holds every benign source at ≤ `targetFp` flagged.
 */
// The parts: train-options.ts (inputs, outputs, defaults), samples.ts (samples and mining), adagrad.ts (the
// optimiser), evaluate.ts (model selection and thresholds); this module runs the rounds.
import { freshState, epoch as runEpoch, snapshot } from './adagrad.ts';
import { evaluate } from './evaluate.ts';
import { decodeModel } from './model.ts';
import { buildSamples, groupWeights, mineHardNegatives, minePositiveWindow } from './samples.ts';
import {
  DEFAULTS,
  type Options,
  prng,
  segmentsOf,
  type TrainOptions,
  type TrainRecord,
  type TrainResult,
} from './train-options.ts';

export {
  evaluate,
  formatTable,
  pickThreshold,
  recordProbability,
  sourceTable,
  thresholdGroups,
} from './evaluate.ts';
export {
  prng,
  type SourceRow,
  segmentsOf,
  type Thresholds,
  type TrainOptions,
  type TrainRecord,
  type TrainResult,
} from './train-options.ts';

export function train(
  trainRecords: readonly TrainRecord[],
  validationRecords: readonly TrainRecord[],
  options: TrainOptions = {},
): TrainResult {
  const o = { ...DEFAULTS, ...options } as Options & TrainOptions;
  const log = options.log ?? (() => {});
  const categoryNames = [
    ...new Set(trainRecords.filter((r) => r.label === 1 && r.category).map((r) => r.category!)),
  ].sort();
  const categories = new Map(categoryNames.map((c, i) => [c, i]));
  const C = categoryNames.length;
  const weights = groupWeights(trainRecords, o.cap);
  const samples = buildSamples(trainRecords, weights, categories, o, prng(o.seed));
  log(`samples: ${samples.length} from ${trainRecords.length} records; categories: ${categoryNames.join(', ')}`);
  const valSegments = validationRecords.map((r) => segmentsOf(r.text));

  let best:
    | { buf: Buffer; lambda: number; epoch: number; meanRecall: number; eval: ReturnType<typeof evaluate> }
    | undefined;
  for (const lambda of o.lambdas) {
    const state = freshState(o, C);
    const rng = prng(o.seed + 1);
    const pool = [...samples];
    let e = 0;
    for (let round = 1; round <= o.rounds; round++) {
      if (round > 1) {
        const current = decodeModel(snapshot(state, o, categoryNames, {}));
        let swapped = 0;
        for (let k = 0; k < pool.length; k++) {
          const sample = pool[k]!;
          if (sample.record === undefined) continue;
          pool[k] = minePositiveWindow(current, trainRecords[sample.record]!, sample);
          swapped++;
        }
        const hard = mineHardNegatives(current, trainRecords, weights, o);
        for (const h of hard) pool.push(h);
        log(
          `round ${round}: ${swapped} long positives now their best window; ${hard.length} hard benign windows mined`,
        );
      }
      const order = new Int32Array(pool.length);
      for (let k = 0; k < o.epochs; k++) {
        e++;
        for (let i = 0; i < order.length; i++) order[i] = i;
        for (let i = order.length - 1; i > 0; i--) {
          const j = Math.floor(rng() * (i + 1));
          const x = order[i]!;
          order[i] = order[j]!;
          order[j] = x;
        }
        runEpoch(state, pool, order, o, lambda, C);
        const training = {
          ...o.provenance,
          lambda,
          epoch: e,
          round,
          seed: o.seed,
          eta0: o.eta0,
          samples: pool.length,
        };
        const buf = snapshot(state, o, categoryNames, training);
        const model = decodeModel(buf);
        const ev = evaluate(model, validationRecords, valSegments, o.targetFp, o.targetBlockFp);
        log(
          `lambda ${lambda} round ${round} epoch ${e}: approval ${ev.thresholds.approval} block ${ev.thresholds.block} mean recall ${(100 * ev.meanRecall).toFixed(2)} %`,
        );
        if (!best || ev.meanRecall > best.meanRecall)
          best = { buf, lambda, epoch: e, meanRecall: ev.meanRecall, eval: ev };
      }
    }
  }
  if (!best) throw new Error('no training ran');
  return {
    model: best.buf,
    thresholds: best.eval.thresholds,
    validation: best.eval.table,
    validationProbs: best.eval.probs,
    chosen: { lambda: best.lambda, epoch: best.epoch, meanRecall: best.meanRecall },
  };
}
