// Which threat feeds `feeds sync` pulls: a JSON file named by PREFLIGHT_FEEDS_CONFIG (default config/feeds.json when
// it exists), validated with ajv when the worker boots and when the CLI reads it. A bad file stops the boot with the
// file, the JSON pointer and the reason, like a bad rules file.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { ROOT_DIR } from '../../config.ts';
import { FEED_FORMATS, type FeedFormat } from './feed-import.ts';

export interface FeedSource {
  /** Unique, short: the status row's key and the entries' `source` (`feed:<name>`). */
  name: string;
  /** http(s) URL; fetched through the SSRF guard like every outbound request. */
  url: string;
  format: FeedFormat;
  /** Category for lines that carry none (`phishing` by default). */
  category?: string;
  /** Add the hosts' registrable domains to the known-good list instead of the threat feed. */
  known_good?: boolean;
  /** Minimum minutes between two pulls (default 60); the cron job runs every 15 minutes and skips feeds not due. */
  interval_minutes?: number;
  /** Largest body accepted (default 50 MB); a larger one fails the pull rather than importing half a list. */
  max_bytes?: number;
}

export interface FeedsConfig {
  feeds: FeedSource[];
}

export const DEFAULT_INTERVAL_MINUTES = 60;
export const DEFAULT_MAX_BYTES = 50 * 1024 * 1024;

const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['feeds'],
  properties: {
    $comment: { type: 'string' },
    feeds: {
      type: 'array',
      maxItems: 200,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'url', 'format'],
        properties: {
          name: { type: 'string', pattern: '^[a-z0-9][a-z0-9_.-]{0,62}$' },
          url: { type: 'string', pattern: '^https?://[^\\s]+$', maxLength: 2048 },
          format: { enum: [...FEED_FORMATS] },
          category: { type: 'string', pattern: '^[a-z0-9_]{1,40}$' },
          known_good: { type: 'boolean' },
          interval_minutes: { type: 'integer', minimum: 5, maximum: 10080 },
          max_bytes: { type: 'integer', minimum: 1024, maximum: 1073741824 },
        },
      },
    },
  },
} as const;

const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);

export class FeedsConfigError extends Error {}

/** The config file in force: PREFLIGHT_FEEDS_CONFIG, else config/feeds.json when present, else none. */
export function feedsConfigPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.PREFLIGHT_FEEDS_CONFIG) return path.resolve(env.PREFLIGHT_FEEDS_CONFIG);
  const fallback = path.join(ROOT_DIR, 'config', 'feeds.json');
  return existsSync(fallback) ? fallback : undefined;
}

/** Reads and validates a feeds file; no file means no feeds (the sync job then does nothing). */
export function loadFeedsConfig(file: string | undefined): FeedsConfig {
  if (!file) return { feeds: [] };
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new FeedsConfigError(`${file}: ${(err as Error).message}`);
  }
  if (!validate(data)) {
    const problems = (validate.errors ?? []).map(
      (e) => `${file}#${e.instancePath || '/'}: ${e.message ?? 'invalid'} ${JSON.stringify(e.params)}`,
    );
    throw new FeedsConfigError(`invalid feeds config:\n  ${problems.join('\n  ')}`);
  }
  const config = data as FeedsConfig;
  const seen = new Set<string>();
  for (const [i, feed] of config.feeds.entries()) {
    if (seen.has(feed.name)) throw new FeedsConfigError(`${file}#/feeds/${i}/name: duplicate feed name ${feed.name}`);
    seen.add(feed.name);
  }
  return config;
}
