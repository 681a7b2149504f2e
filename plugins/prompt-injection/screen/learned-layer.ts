// The learned layer: the best window of each segment, a finding when its probability reaches a threshold. A
// pattern finding of at least the same severity inside that window already explains it; otherwise the window is
// the marker, named by the strongest pattern category inside it or else by the category head. Below the approval
// threshold, a window still asks for approval when the ruleset's corroboration holds: the model over `model_p` and
// pattern evidence short of a finding (at least `pattern_score`) in the same segment, two weak signals that agree.
import type { Meter } from '../matcher.ts';
import type { Segment } from '../normalize.ts';
import { categoryOf, type ScorerModel, scoreSegment, sigmoid } from '../scorer/model.ts';
import { FIRING_SCORE } from './category-scores.ts';
import type { Findings, SeverityOf } from './findings.ts';
import { menuLineRuns, menuRuns } from './menu-runs.ts';
import { categories } from './pattern-file.ts';
import type { PhraseEvidence } from './phrase-hits.ts';
import { SEVERITY_RANK as rank, type ScreenResult, shortMarker } from './result.ts';

/** The learned scorer and the probabilities (rules/injection.json) at which its best window becomes a finding. */
export interface LearnedScreen {
  model: ScorerModel;
  thresholds: { approval_required: number; block: number };
  corroboration?: { model_p: number; pattern_score: number };
  /** Hidden text counts its weak phrases double only where the model scores it at least `model_p`. */
  hidden_text?: { model_p: number };
}

/**
 * The learned layer as the ruleset configures it (rules/injection.json: thresholds, corroboration, hidden_text). The
 * plugin, the screen-equivalence script and the bench all build it here, so none of them screens with half the rules.
 */
export function learnedScreen(
  model: ScorerModel,
  rules: Pick<LearnedScreen, 'thresholds' | 'corroboration' | 'hidden_text'>,
): LearnedScreen {
  return {
    model,
    thresholds: rules.thresholds,
    ...(rules.corroboration ? { corroboration: rules.corroboration } : {}),
    ...(rules.hidden_text ? { hidden_text: rules.hidden_text } : {}),
  };
}

/** Categories whose evidence cannot corroborate the model: being addressed is not itself an instruction. */
const NOT_CORROBORATING = new Set(['agent_address']);

/** The strongest category score of a segment that can corroborate the model. */
export function corroboratingEvidence(
  scores: Readonly<Record<string, number>> | undefined,
): { category: string; score: number } | undefined {
  let best: { category: string; score: number } | undefined;
  for (const [category, score] of Object.entries(scores ?? {})) {
    if (NOT_CORROBORATING.has(category)) continue;
    if (!best || score > best.score || (score === best.score && category < best.category)) best = { category, score };
  }
  return best;
}

/**
 * Whether a window below the approval threshold asks for approval: the model at `model_p` or more and evidence of at
 * least `pattern_score`. Evidence that fired is a pattern finding of its own; corroboration is for what neither layer
 * flags alone.
 */
export function corroborates(
  pair: { model_p: number; pattern_score: number },
  p: number,
  evidenceScore: number,
): boolean {
  return p >= pair.model_p && evidenceScore >= pair.pattern_score && evidenceScore < FIRING_SCORE;
}

/** Flags of model categories the pattern file does not name (the category head may use the data's own names). */
const MODEL_CATEGORY_FLAGS: Record<string, string> = {
  exfiltration: 'agent:credential_lure_for_agents',
  data_exfiltration: 'agent:credential_lure_for_agents',
  credential_theft: 'agent:credential_lure_for_agents',
  code_execution: 'agent:unsafe_execution_lure',
};

function flagOfCategory(category: string): string {
  return categories[category]?.flag ?? MODEL_CATEGORY_FLAGS[category] ?? 'agent:injected_instructions';
}

export type ModelWindow = { segment: number; p: number; marker: string };

/** The best window of one segment under the model, with its probability. */
export interface SegmentWindow {
  segment: number;
  p: number;
  start: number;
  end: number;
}

/**
 * The model's best window of each segment, read with the negated phrases and the menu runs blanked (same length, so
 * offsets hold): advice against an override ("never ignore the safety instructions") is not evidence for it either,
 * and a breadcrumb of headings ("Droit > Pénal > Instruction > …") gives no order.
 */
export function scoreWindows(
  model: ScorerModel,
  segs: readonly Segment[],
  evidence: PhraseEvidence,
  meter?: Meter,
): (SegmentWindow | undefined)[] {
  const negatedBySegment = new Map<number, { start: number; end: number }[]>();
  for (const n of evidence.negatedSpans) {
    const list = negatedBySegment.get(n.segment) ?? [];
    list.push(n);
    negatedBySegment.set(n.segment, list);
  }
  return segs.map((seg, si) => {
    let text = seg.text;
    if (meter) meter.steps += text.length;
    const menus = [...menuRuns(text), ...menuLineRuns(text)].map(([start, end]) => ({ start, end }));
    const blanked = [...(negatedBySegment.get(si) ?? []), ...menus];
    if (blanked.length > 0) {
      const chars = text.split('');
      for (const n of blanked) for (let k = n.start; k < n.end; k++) chars[k] = ' ';
      text = chars.join('');
      if (meter) meter.steps += text.length;
    }
    const best = scoreSegment(model, text, meter).best;
    return best ? { segment: si, p: sigmoid(best.z), start: best.start, end: best.end } : undefined;
  });
}

/** Adds the model's findings for the segments' best windows; returns them with their markers (for `explain`). */
export function addLearnedFindings(
  learned: LearnedScreen,
  windows: readonly (SegmentWindow | undefined)[],
  findings: Findings,
  segs: readonly Segment[],
  evidence: PhraseEvidence,
  fired: ReadonlySet<string>,
  segmentScores: ReadonlyMap<number, Record<string, number>>,
  severityOf: SeverityOf,
): ModelWindow[] {
  const { hits } = evidence;
  const add = (f: Parameters<Findings['add']>[0]) => findings.add(f);
  const modelWindows: ModelWindow[] = [];
  const { model, thresholds } = learned;
  for (const best of windows) {
    if (!best) continue;
    const si = best.segment;
    const seg = segs[si]!;
    const p = best.p;
    const marker = seg.text.slice(best.start, best.end).replace(/\s+/g, ' ').trim();
    modelWindows.push({ segment: si, p, marker });
    let category: string;
    let severity: 'high' | 'low';
    if (p >= thresholds.approval_required) {
      severity = p >= thresholds.block ? 'high' : 'low';
      const named = nameWindow(si, best, severity);
      if (!named) continue;
      category = named;
    } else {
      const pair = learned.corroboration;
      const support = pair && corroboratingEvidence(segmentScores.get(si));
      if (!pair || !support || !corroborates(pair, p, support.score)) continue;
      category = support.category;
      severity = 'low';
    }
    add({
      category,
      marker,
      flag: flagOfCategory(category),
      severity,
      ...(seg.hidden ? { hidden: true } : {}),
    });
    if (seg.hidden) {
      add({
        category: 'hidden_text',
        marker: shortMarker(`${seg.via ?? 'hidden'}: ${marker}`),
        flag: categories.hidden_text!.flag,
        severity: severity === 'low' ? 'low' : severityOf('hidden_text'),
        hidden: true,
      });
    }
  }
  return modelWindows;

  /** The category of a window over threshold, or undefined when a pattern finding inside it already explains it. */
  function nameWindow(si: number, best: { start: number; end: number }, severity: 'high' | 'low'): string | undefined {
    const text = segs[si]!.text;
    let patternCategory: string | undefined;
    let patternSeverity: ScreenResult['severity'] = 'none';
    for (const h of hits) {
      if (h.segment !== si || !fired.has(h.category) || h.end <= best.start || h.start >= best.end) continue;
      const sev = severityOf(h.category);
      if (rank[sev] > rank[patternSeverity]) {
        patternCategory = h.category;
        patternSeverity = sev;
      }
    }
    if (patternCategory && rank[patternSeverity] >= rank[severity]) return undefined;
    return patternCategory ?? categoryOf(model, text, best)?.category ?? 'instruction_override';
  }
}

/**
 * Where hidden text counts its weak phrases double: only where the model reads an instruction too (its best window
 * at the rules' `hidden_text.model_p` or more). The commented-out `<link … plugin … href="https://…">` tags, meta
 * descriptions ("What's the secret to …") and closed dialogs ("Do not ask me again") of real pages hold half-weight
 * phrases in text the model scores near zero. Without the rule, everywhere.
 */
export function hiddenDoubles(
  learned: LearnedScreen | undefined,
  windows: readonly (SegmentWindow | undefined)[],
): (segment: number) => boolean {
  const bar = learned?.hidden_text?.model_p;
  return bar === undefined ? () => true : (si) => (windows[si]?.p ?? 0) >= bar;
}
