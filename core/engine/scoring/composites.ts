import type { Finding } from '../../detector.ts';
import type { CompositeRule } from '../rules/ruleset.ts';

/** The composite flags that the fired flags make, each with the parts that made it as evidence. */
export function compositeFindings(fired: ReadonlySet<string>, rules: readonly CompositeRule[]): Finding[] {
  const out: Finding[] = [];
  for (const rule of rules) {
    if (fired.has(rule.flag) || !rule.all.every((f) => fired.has(f))) continue;
    const anyHit = rule.any?.filter((f) => fired.has(f));
    if (rule.any && anyHit?.length === 0) continue;
    const parts = [...rule.all, ...(anyHit ?? [])];
    out.push({ flag: rule.flag, detail: `${rule.detail} (${parts.join(' + ')})`, evidence: { composite_of: parts } });
  }
  return out;
}
