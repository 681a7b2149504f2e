import type { DetectionContext, DetectorOutput } from '../../detector.ts';

/** What a memo key covers: everything a deterministic detector may read (`signal` is not input). */
const KEYED: ReadonlySet<string> = new Set(['surface', 'url', 'target', 'text', 'texts', 'signal']);

/** Outputs kept per detector; the oldest input is forgotten first. */
export const OUTPUT_MEMO_ENTRIES = 5_000;
/** Inputs longer than this (URL plus texts, in characters) are never kept: the memo is for URL-sized inputs. */
export const OUTPUT_MEMO_MAX_INPUT = 4_096;

/**
 * One deterministic detector's outputs by input (DetectorMeta.deterministicOn). The key is everything such a detector
 * may read: the surface, the URL, the parsed target's URL and the texts. What is kept is a frozen copy (structured
 * clone) of the output: the copy shares nothing with the detector's own state or the catalogs, and every later
 * request with the same input shares it, so a caller that tried to change it throws instead of changing another
 * request's answer. An output that cannot be cloned is not kept, nor is a skipped run (timeout, error).
 */
export class OutputMemo {
  private readonly outputs = new Map<string, DetectorOutput>();

  constructor(private readonly limit = OUTPUT_MEMO_ENTRIES) {}

  /**
   * The memo key of a context, or undefined when it carries anything but a URL and short texts. The fields the key
   * covers are listed, not the ones it refuses: a field added to DetectionContext later is never keyed around.
   */
  static keyOf(ctx: Omit<DetectionContext, 'signal'>): string | undefined {
    for (const [field, value] of Object.entries(ctx)) if (value !== undefined && !KEYED.has(field)) return undefined;
    let size = (ctx.url?.length ?? 0) + (ctx.text?.length ?? 0);
    const texts = ctx.texts ? Object.keys(ctx.texts).sort() : [];
    for (const k of texts) size += k.length + ctx.texts![k]!.length;
    if (size > OUTPUT_MEMO_MAX_INPUT) return undefined;
    return JSON.stringify([
      ctx.surface,
      ctx.url ?? null,
      ctx.target?.url.href ?? null,
      ctx.text ?? null,
      texts.map((k) => [k, ctx.texts![k]]),
    ]);
  }

  get(key: string): DetectorOutput | undefined {
    return this.outputs.get(key);
  }

  put(key: string, output: DetectorOutput): void {
    let copy: DetectorOutput;
    try {
      copy = deepFreeze(structuredClone(output));
    } catch {
      return; // not plain data (a function, a class instance): run it again next time
    }
    if (this.outputs.size >= this.limit) this.outputs.delete(this.outputs.keys().next().value as string);
    this.outputs.set(key, copy);
  }
}

function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const v of Object.values(value as object)) deepFreeze(v);
  return value;
}
