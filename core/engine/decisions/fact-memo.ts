import { flatCanonicalJson } from '../contract/canonical-json.ts';

/** How many fact sets a memo keeps; the oldest is forgotten first. */
export const FACT_MEMO_LIMIT = 10_000;

/**
 * The memo every json-rules-engine wrapper shares (decision surfaces, score adjustments). The engine is slow per
 * call (hundreds of evaluations per second for a few dozen rules) while a surface's fact sets are few and repeat,
 * and rules are fixed for a wrapper's lifetime: so an answer is kept per canonical fact set (RFC 8785 JSON), the
 * pending promise itself (concurrent askers share one evaluation), and a rejected answer is forgotten so the next
 * call asks the engine again. A test holds memoised answers equal to the engine's.
 */
export class FactMemo<T> {
  private readonly answers = new Map<string, Promise<T>>();

  constructor(private readonly limit = FACT_MEMO_LIMIT) {}

  get(facts: unknown, evaluate: () => Promise<T>): Promise<T> {
    const key = flatCanonicalJson(facts);
    const hit = this.answers.get(key);
    if (hit) return hit;
    const pending = evaluate();
    if (this.answers.size >= this.limit) this.answers.delete(this.answers.keys().next().value as string);
    this.answers.set(key, pending);
    pending.catch(() => this.answers.delete(key));
    return pending;
  }

  get size(): number {
    return this.answers.size;
  }
}
