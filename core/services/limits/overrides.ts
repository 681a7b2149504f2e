import { ConfigError } from '../../config.ts';

/** Per-minute limits that replace the plan values for every route (operators, load tests, test suites). */
export interface RateLimitOverrides {
  anonymous?: number;
  workspace?: number;
}

const MAX_PER_MINUTE = 10_000_000;

function perMinute(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  // 0 is allowed on purpose: it shuts a class of callers out of the limited routes.
  if (!Number.isInteger(value) || value < 0 || value > MAX_PER_MINUTE) {
    throw new ConfigError(`${name} must be a whole number of requests per minute (got ${JSON.stringify(raw)})`);
  }
  return value;
}

/** The one place the rate-limit environment overrides are read. */
export function rateLimitOverridesFromEnv(env: NodeJS.ProcessEnv = process.env): RateLimitOverrides {
  return {
    anonymous: perMinute(env, 'PREFLIGHT_RATE_LIMIT_ANON'),
    workspace: perMinute(env, 'PREFLIGHT_RATE_LIMIT_WORKSPACE'),
  };
}
