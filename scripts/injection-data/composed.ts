// The loop shared by the compositional generators (third and fifth waves): per language, groups cut by rank, one
// seeded RNG, n records drawn as family → built text → slots and typos → planted or not. The order of the RNG draws
// is part of the build's bytes, so every generator goes through this one loop.
import type { Category } from './record.ts';
import { Rng } from './rng.ts';
import type { BuildContext, SourceRecord } from './source.ts';
import { assignByRank, DEFAULT_POLICY } from './split.ts';
import { capitalFirst, withTypos } from './synthetic.ts';
import { plantSome } from './synthetic-extra.ts';

export interface Composed {
  text: string;
  group: string;
  category: Category;
}

export interface ComposedSpec<F, B extends Composed> {
  source: string;
  label: 0 | 1;
  langs: readonly string[];
  /** Every group the generator can produce for a language, so the rank split sees them all up front. */
  groupsOf(lang: string): string[];
  count(lang: string): number;
  families: readonly F[];
  build(lang: string, family: F, rng: Rng): B;
  /** Fills the built text's slots (drawing from `rng`) before typos are added. */
  fill(lang: string, text: string, rng: Rng): string;
  /** Chance that a built record is planted in a benign carrier of its split. */
  plantChance(built: B): number;
}

export function generateComposed<F, B extends Composed>(ctx: BuildContext, spec: ComposedSpec<F, B>): SourceRecord[] {
  const out: SourceRecord[] = [];
  for (const lang of [...spec.langs].sort()) {
    const splits = assignByRank(spec.groupsOf(lang), DEFAULT_POLICY);
    const rng = new Rng(`${spec.source}:${lang}`);
    const n = spec.count(lang);
    for (let i = 0; i < n; i++) {
      const built = spec.build(lang, rng.pick(spec.families), rng);
      const split = splits.get(built.group)!;
      const text = capitalFirst(withTypos(lang, spec.fill(lang, built.text, rng), rng));
      const planted = plantSome(ctx, split, lang, text, rng, spec.plantChance(built));
      out.push({
        text: planted.text,
        label: spec.label,
        source: spec.source,
        lang,
        kind: planted.kind,
        ...(spec.label === 1 ? { category: built.category } : {}),
        group: built.group,
        split,
      });
    }
  }
  return out;
}
