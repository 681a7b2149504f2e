/** Thrown (or passed to undici's connect callback) when the SSRF guard refuses a destination. */
export class SsrfError extends Error {
  override readonly name = 'SsrfError';
  readonly code = 'ERR_SSRF_BLOCKED';
  constructor(
    readonly host: string,
    readonly reason: string,
    readonly address?: string,
  ) {
    super(`refused to connect to ${host}${address && address !== host ? ` (${address})` : ''}: ${reason}`);
  }
}

/** undici wraps connector errors; walk `cause` so callers can tell a refusal from a network fault. */
export function findSsrfError(err: unknown): SsrfError | undefined {
  let current: unknown = err;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof SsrfError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
