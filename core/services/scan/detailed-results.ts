/**
 * Scan-surface detectors return `data` keyed by dotted `detailed_results` paths (`ssl.data.ct`, `whois.age_days`);
 * this folds them into one tree. Objects at the same path merge key by key; anything else is replaced.
 */
export function mergeAtPath(tree: Record<string, unknown>, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  let node = tree;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  const last = keys.at(-1)!;
  const existing = node[last];
  node[last] = isPlainObject(existing) && isPlainObject(value) ? mergeObjects(existing, value) : value;
}

function mergeObjects(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b))
    out[k] = isPlainObject(out[k]) && isPlainObject(v) ? mergeObjects(out[k], v) : v;
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
