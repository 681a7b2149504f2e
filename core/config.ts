import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InjectionToken } from 'tsyringe';

/** Repository root, so paths work whatever the caller's working directory. */
export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface AppConfig {
  port: number;
  host: string;
  /** When unset, an embedded PostgreSQL under `dataDir` is used. */
  databaseUrl?: string;
  dataDir: string;
  rulesDir: string;
  bodyLimitBytes: number;
  /** How long a decision may be cached by the caller; the spec's longest documented value is 300 s. */
  decisionTtlSeconds: number;
  logRequests: boolean;
  /** Full scan payloads are kept this long before retention may compact superseded rows. */
  evidenceWindowHours: number;
  /** Domains per POST /scan/bulk. */
  bulkScanLimit: number;
  /** `inprocess` (default): the service runs a worker; `off`: run `npm run worker` processes instead. */
  worker: 'inprocess' | 'off';
  workerConcurrency: number;
  /** How long a workspace's scan result of a target is served from cache (force_scan bypasses it). */
  scanCacheSeconds: number;
  /** PREFLIGHT_LAB: a lab sites folder; the service then starts its own lab and points every source at it. */
  labSitesDir?: string;
  /** Evidence sources outside lab mode. */
  sources: {
    dnsServers: string[];
    hostIntelKey?: string;
    /** How long source answers are cached in memory (0 turns caching off, e.g. for benchmarks). */
    cacheTtlMs?: number;
  };
}

export const AppConfig: InjectionToken<AppConfig> = Symbol('AppConfig');

export class ConfigError extends Error {}

function intFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max} (got ${JSON.stringify(raw)})`);
  }
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return {
    port: intFromEnv(env, 'PORT', 8080, 0, 65535),
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(ROOT_DIR, env.PREFLIGHT_DATA_DIR || '.data'),
    rulesDir: path.resolve(ROOT_DIR, env.PREFLIGHT_RULES_DIR || 'rules'),
    bodyLimitBytes: intFromEnv(env, 'PREFLIGHT_BODY_LIMIT_BYTES', 2 * 1024 * 1024, 1024, 64 * 1024 * 1024),
    decisionTtlSeconds: intFromEnv(env, 'PREFLIGHT_DECISION_TTL_SECONDS', 300, 1, 300),
    logRequests: env.PREFLIGHT_LOG_REQUESTS !== '0' && env.NODE_ENV !== 'test',
    evidenceWindowHours: intFromEnv(env, 'PREFLIGHT_EVIDENCE_WINDOW_HOURS', 72, 1, 24 * 365),
    bulkScanLimit: intFromEnv(env, 'BULK_SCAN_LIMIT', 50, 1, 10_000),
    worker: env.PREFLIGHT_WORKER === 'off' ? 'off' : 'inprocess',
    workerConcurrency: intFromEnv(env, 'PREFLIGHT_WORKER_CONCURRENCY', 2, 1, 64),
    scanCacheSeconds: intFromEnv(env, 'PREFLIGHT_SCAN_CACHE_SECONDS', 3600, 0, 30 * 86400),
    labSitesDir: env.PREFLIGHT_LAB ? path.resolve(process.cwd(), env.PREFLIGHT_LAB) : undefined,
    sources: {
      dnsServers: (env.PREFLIGHT_DNS_SERVERS ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      hostIntelKey: env.PREFLIGHT_HOSTINTEL_KEY || undefined,
      cacheTtlMs: env.PREFLIGHT_SOURCE_CACHE_MS
        ? intFromEnv(env, 'PREFLIGHT_SOURCE_CACHE_MS', 0, 0, 86_400_000)
        : undefined,
    },
  };
}
