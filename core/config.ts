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
  /** Body limit for callers without a key (/v1/scan, /scan_async, /scan/bulk): their bodies are a few domains. */
  anonymousBodyLimitBytes: number;
  /** JSON bodies nested deeper than this are refused at parse time (400), before any code recurses into them. */
  jsonMaxDepth: number;
  /** The HTTP server's limits (node's http.Server settings), so a slow or stalled client cannot hold a socket. */
  http: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number; maxConnections: number };
  /** How long a decision may be cached by the caller; the spec's longest documented value is 300 s. */
  decisionTtlSeconds: number;
  logRequests: boolean;
  /** GET /metrics: off, on the service's port, or (with a port) on a listener of its own. */
  metrics: { enabled: boolean; port?: number };
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
  /**
   * PREFLIGHT_WEBHOOK_ALLOW_ENDPOINTS: `ip:port` webhook receivers allowed although the SSRF guard refuses their
   * address (a receiver on loopback in tests or a lab). Empty by default: webhooks reach public addresses only.
   */
  webhookAllowEndpoints?: string[];
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
  // Digits only: Number() would also take "1e3", "0x10" and " 10".
  const value = /^-?[0-9]{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max} (got ${JSON.stringify(raw)})`);
  }
  return value;
}

function httpLimitsFromEnv(env: NodeJS.ProcessEnv): AppConfig['http'] {
  const http = {
    headersTimeoutMs: intFromEnv(env, 'PREFLIGHT_HEADERS_TIMEOUT_MS', 10_000, 1000, 600_000),
    requestTimeoutMs: intFromEnv(env, 'PREFLIGHT_REQUEST_TIMEOUT_MS', 30_000, 1000, 3_600_000),
    keepAliveTimeoutMs: intFromEnv(env, 'PREFLIGHT_KEEP_ALIVE_TIMEOUT_MS', 5000, 100, 600_000),
    maxConnections: intFromEnv(env, 'PREFLIGHT_MAX_CONNECTIONS', 1024, 1, 1_000_000),
  };
  // node refuses a header deadline later than the whole request's.
  if (http.headersTimeoutMs > http.requestTimeoutMs) {
    throw new ConfigError('PREFLIGHT_HEADERS_TIMEOUT_MS must not be larger than PREFLIGHT_REQUEST_TIMEOUT_MS');
  }
  return http;
}

function metricsFromEnv(env: NodeJS.ProcessEnv): AppConfig['metrics'] {
  const mode = env.PREFLIGHT_METRICS ?? 'on';
  if (mode !== 'on' && mode !== 'off')
    throw new ConfigError(`PREFLIGHT_METRICS must be on or off (got ${JSON.stringify(mode)})`);
  if (mode === 'off') return { enabled: false };
  const port = env.PREFLIGHT_METRICS_PORT ? intFromEnv(env, 'PREFLIGHT_METRICS_PORT', 0, 1, 65535) : undefined;
  return { enabled: true, ...(port !== undefined ? { port } : {}) };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return {
    port: intFromEnv(env, 'PORT', 8080, 0, 65535),
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(ROOT_DIR, env.PREFLIGHT_DATA_DIR || '.data'),
    rulesDir: path.resolve(ROOT_DIR, env.PREFLIGHT_RULES_DIR || 'rules'),
    bodyLimitBytes: intFromEnv(env, 'PREFLIGHT_BODY_LIMIT_BYTES', 2 * 1024 * 1024, 1024, 64 * 1024 * 1024),
    anonymousBodyLimitBytes: intFromEnv(env, 'PREFLIGHT_ANONYMOUS_BODY_LIMIT_BYTES', 64 * 1024, 1024, 64 * 1024 * 1024),
    jsonMaxDepth: intFromEnv(env, 'PREFLIGHT_JSON_MAX_DEPTH', 64, 2, 1000),
    http: httpLimitsFromEnv(env),
    decisionTtlSeconds: intFromEnv(env, 'PREFLIGHT_DECISION_TTL_SECONDS', 300, 1, 300),
    logRequests: env.PREFLIGHT_LOG_REQUESTS !== '0' && env.NODE_ENV !== 'test',
    metrics: metricsFromEnv(env),
    evidenceWindowHours: intFromEnv(env, 'PREFLIGHT_EVIDENCE_WINDOW_HOURS', 72, 1, 24 * 365),
    bulkScanLimit: intFromEnv(env, 'BULK_SCAN_LIMIT', 50, 1, 10_000),
    worker: env.PREFLIGHT_WORKER === 'off' ? 'off' : 'inprocess',
    workerConcurrency: intFromEnv(env, 'PREFLIGHT_WORKER_CONCURRENCY', 2, 1, 64),
    scanCacheSeconds: intFromEnv(env, 'PREFLIGHT_SCAN_CACHE_SECONDS', 3600, 0, 30 * 86400),
    labSitesDir: env.PREFLIGHT_LAB ? path.resolve(process.cwd(), env.PREFLIGHT_LAB) : undefined,
    webhookAllowEndpoints: (env.PREFLIGHT_WEBHOOK_ALLOW_ENDPOINTS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
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
