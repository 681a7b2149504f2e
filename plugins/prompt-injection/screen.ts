// The screen: normalisation, then the stages of screen/ (phrase hits and foreign-task lines, category scores, the
// pattern layer's findings, the learned layer), then the hidden-encoding findings and the overall severity.
import type { Meter } from './matcher.ts';
import { normalize } from './normalize.ts';
import { type PatternRules, SHIPPED_PATTERN_RULES } from './pattern-rules.ts';
import { bestScores, scoreCategories } from './screen/category-scores.ts';
import { findExfilImages } from './screen/exfil-image.ts';
import { addPatternFindings, Findings } from './screen/findings.ts';
import {
  addLearnedFindings,
  hiddenDoubles,
  type LearnedScreen,
  type ModelWindow,
  scoreWindows,
} from './screen/learned-layer.ts';
import { categories } from './screen/pattern-file.ts';
import { collectHits, segmentMultipliers } from './screen/phrase-hits.ts';
import { SEVERITY_RANK as rank, type ScreenResult, shortMarker } from './screen/result.ts';

export { type LearnedScreen, learnedScreen } from './screen/learned-layer.ts';
export { checkScreenRules } from './screen/pattern-file.ts';
export { INJECTION_FLAGS, type InjectionFinding, type ScreenResult } from './screen/result.ts';

export interface ScreenOptions {
  /** Counts elementary steps (tokens, automaton transitions, line checks) for the linearity test. */
  meter?: Meter;
  /** The learned layer; without it the screen is the pattern layer alone. */
  learned?: LearnedScreen;
  /** Category severities and pattern weights (the ruleset's rules/injection-patterns.json); default: the shipped file. */
  rules?: PatternRules;
  /** Filled with every phrase hit, the best window score per category and the model's best window per segment. */
  explain?: {
    scores?: Record<string, number>;
    hits?: string[];
    model?: { segment: number; p: number; marker: string }[];
    /** Category scores per segment (the best window of the segment). */
    segmentScores?: Record<number, Record<string, number>>;
  };
}

export function screenText(text: string, options: ScreenOptions = {}): ScreenResult {
  const meter = options.meter;
  const rules = options.rules ?? SHIPPED_PATTERN_RULES;
  const severityOf = (category: string) => rules.severities[category]!;
  const norm = normalize(text, meter);
  const segs = norm.segments;
  const learned = options.learned;
  const evidence = collectHits(segs, rules, learned !== undefined, meter);
  const { hits } = evidence;
  const windows = learned ? scoreWindows(learned.model, segs, evidence, meter) : [];
  const multiplier = segmentMultipliers(segs, evidence.addressedSeg, hiddenDoubles(learned, windows));
  const { fired, segmentScores } = scoreCategories(evidence, multiplier, meter);

  const findings = new Findings();
  addPatternFindings(findings, segs, hits, fired, severityOf);
  const modelWindows: ModelWindow[] = learned
    ? addLearnedFindings(learned, windows, findings, segs, evidence, fired, segmentScores, severityOf)
    : [];
  const exfilCat = categories.credential_exfiltration!;
  for (const img of findExfilImages(text)) {
    findings.add({
      category: 'credential_exfiltration',
      marker: shortMarker(img.marker),
      flag: exfilCat.flag,
      severity: severityOf('credential_exfiltration'),
    });
  }
  const hiddenCat = categories.hidden_text!;
  if (norm.interleavedZeroWidth >= 8 && findings.list.length > 0) {
    findings.add({
      category: 'hidden_text',
      marker: `zero-width characters inside words (${norm.interleavedZeroWidth})`,
      flag: hiddenCat.flag,
      severity: findings.list.some((f) => f.severity === 'high') ? severityOf('hidden_text') : 'low',
    });
  }
  if (!findings.list.some((f) => f.category === 'hidden_text')) {
    // A message deliberately encoded in invisible characters is evidence even when no phrase in it matched.
    for (const m of norm.hiddenMessages) {
      findings.add({
        category: 'hidden_text',
        marker: shortMarker(`${m.encoding}: ${m.text.slice(0, 100)}`),
        flag: hiddenCat.flag,
        severity: 'low',
        hidden: true,
      });
    }
  }
  let severity: ScreenResult['severity'] = 'none';
  for (const f of findings.list) if (rank[f.severity] > rank[severity]) severity = f.severity;
  if (options.explain) {
    options.explain.scores = bestScores(segmentScores.values());
    options.explain.hits = hits.map(
      (h) => `${h.patternId} ${h.weight}x${multiplier[h.segment]}: ${shortMarker(h.marker)}`,
    );
    options.explain.model = modelWindows;
    options.explain.segmentScores = Object.fromEntries(segmentScores);
  }
  return { findings: findings.list, severity };
}
