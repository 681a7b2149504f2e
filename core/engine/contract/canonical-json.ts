import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { CANONICAL_MAX_DEPTH, JsonTooDeep, nestsDeeperThan } from '../json-depth.ts';

// Canonical JSON and hashing: what `ruleset_hash`, decision seals, evidence packs and tool pins are computed over.

/** RFC 8785 canonical JSON. */
export function canonicalJson(value: unknown): string {
  // canonicalize recurses: a value nested thousands deep would overflow the stack, so it is refused first.
  if (nestsDeeperThan(value, CANONICAL_MAX_DEPTH)) throw new JsonTooDeep(CANONICAL_MAX_DEPTH);
  const out = canonicalize(value);
  if (out === undefined) throw new Error('value cannot be canonicalised');
  return out;
}

/** No lone surrogate (String.prototype.isWellFormed: node 20 has it, the TypeScript lib here predates it). */
const wellFormed = (s: string): boolean => (s as string & { isWellFormed(): boolean }).isWellFormed();

/**
 * canonicalJson of a flat record (values: string, finite number, boolean, null or a list of strings), built in one
 * pass without the general canonicaliser's recursion and depth check: the hot paths' fact sets and memo keys are
 * such records. Byte for byte what canonicalJson gives (RFC 8785 sorts keys by UTF-16 code units, as sort() does,
 * and writes these values as JSON.stringify does); any other shape, or a string canonicalJson refuses (a lone
 * surrogate), takes canonicalJson itself.
 */
export function flatCanonicalJson(value: unknown): string {
  if (
    value === null ||
    typeof value !== 'object' ||
    Array.isArray(value) ||
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  ) {
    return canonicalJson(value);
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  let first = true;
  for (const k of keys) {
    const v = record[k];
    if (v === undefined) continue; // JSON (and the canonicaliser) leave undefined properties out
    let json: string;
    if (typeof v === 'string') {
      if (!wellFormed(v)) return canonicalJson(value);
      json = JSON.stringify(v);
    } else if (typeof v === 'boolean' || v === null || (typeof v === 'number' && Number.isFinite(v))) {
      json = JSON.stringify(v);
    } else if (Array.isArray(v) && v.every((x) => typeof x === 'string' && wellFormed(x))) {
      json = JSON.stringify(v);
    } else {
      return canonicalJson(value);
    }
    if (!wellFormed(k)) return canonicalJson(value);
    out += `${first ? '' : ','}${JSON.stringify(k)}:${json}`;
    first = false;
  }
  return `${out}}`;
}

export function sha256Hex(value: string | Buffer): string {
  return createHash('sha256').update(value).digest('hex');
}
