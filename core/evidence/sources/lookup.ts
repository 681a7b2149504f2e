import { findSsrfError } from '../net/ssrf-error.ts';

/** Why a best-effort source left its fields empty. Stable strings: they land in evidence as `reason`. */
export type LookupFailure =
  | 'timeout'
  | 'unreachable'
  | 'not_found'
  | 'blocked'
  | 'bad_response'
  | 'not_configured'
  | 'not_applicable'
  | 'aborted';

/** A source either answers or says why it did not; it never throws into the scan. */
export type Lookup<T> = { ok: true; value: T; cached: boolean } | { ok: false; reason: LookupFailure; detail?: string };

export interface CallOptions {
  /** The scan's (or the detector's) signal; aborting it ends the lookup with `aborted`. */
  signal?: AbortSignal;
  /** Overrides the source's default budget for this call. */
  timeoutMs?: number;
}

export function found<T>(value: T, cached = false): Lookup<T> {
  return { ok: true, value, cached };
}

export function failed<T>(reason: LookupFailure, detail?: string): Lookup<T> {
  return detail === undefined ? { ok: false, reason } : { ok: false, reason, detail };
}

export interface Budget {
  signal: AbortSignal;
  /** True when the budget (not the caller) ended the call. */
  timedOut(): boolean;
}

export function startBudget(timeoutMs: number, callerSignal?: AbortSignal): Budget {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = callerSignal ? AbortSignal.any([timeout, callerSignal]) : timeout;
  return { signal, timedOut: () => timeout.aborted && !callerSignal?.aborted };
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

/** Map whatever a client library threw to a reason; the budget decides between `timeout` and `aborted`. */
export function failureFrom<T>(err: unknown, budget?: Budget): Lookup<T> {
  const ssrf = findSsrfError(err);
  if (ssrf) return failed('blocked', ssrf.message);
  const detail = err instanceof Error ? err.message : String(err);
  if (budget?.signal.aborted) return failed(budget.timedOut() ? 'timeout' : 'aborted', detail);
  const code =
    (err as { code?: string; cause?: { code?: string } }).code ?? (err as { cause?: { code?: string } }).cause?.code;
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT') {
    return failed('timeout', detail);
  }
  if (code && UNREACHABLE_CODES.has(code)) return failed('unreachable', detail);
  return failed('bad_response', detail);
}

export const DAY_MS = 86_400_000;

/** Whole days between an ISO/RFC date and now; undefined for unparseable dates. Never negative. */
export function ageInDays(date: string | Date | undefined, nowMs: number): number | undefined {
  if (date === undefined) return undefined;
  const then = typeof date === 'string' ? Date.parse(date) : date.getTime();
  if (Number.isNaN(then)) return undefined;
  return Math.max(0, Math.floor((nowMs - then) / DAY_MS));
}
