import type { Context } from 'koa';
import { badRequest } from '../errors.ts';

/** A query parameter given at most once (a repeated one is a 400, not a silent pick). */
export function queryOnce(ctx: Context, name: string): string | undefined {
  const v = ctx.query[name];
  if (Array.isArray(v)) throw badRequest(`${name} may be given once`);
  return v;
}

/**
 * A whole-number query parameter in [min, max], or `fallback` when absent. Digits only: Number() would also take
 * "1e2", "0x10", " 10" and "10.0".
 */
export function queryInt(ctx: Context, name: string, range: { min: number; max: number; fallback: number }): number {
  const raw = queryOnce(ctx, name);
  if (raw === undefined) return range.fallback;
  const value = /^[0-9]{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(value) || value < range.min || value > range.max) {
    throw badRequest(`${name} must be an integer from ${range.min} to ${range.max}`);
  }
  return value;
}
