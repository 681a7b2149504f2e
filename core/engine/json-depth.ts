/** A JSON value nested deeper than a limit: refused before any recursive code (canonical JSON, screens) walks it. */
export class JsonTooDeep extends Error {
  constructor(readonly maxDepth: number) {
    super(`JSON value nests deeper than ${maxDepth} levels`);
  }
}

/**
 * Whether a JSON value nests deeper than `max` (objects and arrays count one level each). Iterative: a hostile
 * value nested 100,000 deep must not overflow the stack of the very check meant to refuse it.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** Deepest nesting canonical JSON accepts: far beyond any real input, far below a stack overflow. */
export const CANONICAL_MAX_DEPTH = 256;
