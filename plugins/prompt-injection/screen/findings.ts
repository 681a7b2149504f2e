// Findings: deduplicated per category and marker, in the order found; and the pattern layer's findings (fired
// categories, and hidden_text for what only hidden text says).
import type { Segment } from '../normalize.ts';
import { categories } from './pattern-file.ts';
import type { Hit } from './phrase-hits.ts';
import { type InjectionFinding, SEVERITY_RANK, shortMarker } from './result.ts';

export type SeverityOf = (category: string) => 'high' | 'low';

export class Findings {
  readonly list: InjectionFinding[] = [];
  private readonly seen = new Map<string, InjectionFinding>();

  /** A second finding with the same category and marker only raises the first one's severity. */
  add(f: InjectionFinding): void {
    const key = `${f.category}\u0000${f.marker.toLowerCase()}`;
    const earlier = this.seen.get(key);
    if (earlier) {
      // The model can rate a span higher than the pattern that already named it (a foreign-task line is low).
      if (SEVERITY_RANK[f.severity] > SEVERITY_RANK[earlier.severity]) earlier.severity = f.severity;
      return;
    }
    this.seen.set(key, f);
    this.list.push(f);
  }
}

/** Up to ten findings per fired category; a phrase seen only in hidden text is also a hidden_text finding. */
export function addPatternFindings(
  findings: Findings,
  segs: readonly Segment[],
  hits: readonly Hit[],
  fired: ReadonlySet<string>,
  severityOf: SeverityOf,
): void {
  const add = (f: InjectionFinding) => findings.add(f);
  const visibleMarkers = new Set<string>();
  for (const h of hits)
    if (!segs[h.segment]!.hidden && fired.has(h.category)) visibleMarkers.add(h.marker.toLowerCase());
  const perCategory = new Map<string, number>();
  for (const h of hits) {
    if (!fired.has(h.category)) continue;
    const n = perCategory.get(h.category) ?? 0;
    if (n >= 10) continue;
    perCategory.set(h.category, n + 1);
    const cat = categories[h.category]!;
    const catSeverity = severityOf(h.category);
    const seg = segs[h.segment]!;
    const marker = shortMarker(h.marker);
    add({
      category: h.category,
      marker,
      flag: cat.flag,
      severity: catSeverity,
      ...(seg.hidden ? { hidden: true } : {}),
    });
    if (seg.hidden && !visibleMarkers.has(h.marker.toLowerCase())) {
      const hiddenCat = categories.hidden_text!;
      add({
        category: 'hidden_text',
        marker: shortMarker(`${seg.via ?? 'hidden'}: ${h.marker}`),
        flag: hiddenCat.flag,
        severity: catSeverity === 'low' ? 'low' : severityOf('hidden_text'),
        hidden: true,
      });
    }
  }
}
