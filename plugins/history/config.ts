export interface HistoryConfig {
  /** history:thin_public_footprint when captures fall on at most this many distinct days (0 = none at all). */
  thinMaxCaptureDays: number;
  /** history:recent_first_seen when the earliest capture is at most this many days old (inclusive). */
  recentFirstSeenMaxDays: number;
  /** Budget for the extra lookup of the registered site when a subdomain's own history looks thin or recent. */
  siteLookupTimeoutMs: number;
}

export const DEFAULT_HISTORY_CONFIG: HistoryConfig = {
  thinMaxCaptureDays: 2,
  recentFirstSeenMaxDays: 30,
  siteLookupTimeoutMs: 3_000,
};

export const HISTORY_CONFIG_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    thinMaxCaptureDays: { type: 'integer', minimum: 0 },
    recentFirstSeenMaxDays: { type: 'integer', minimum: 0 },
    siteLookupTimeoutMs: { type: 'integer', minimum: 100, maximum: 10_000 },
  },
  required: ['thinMaxCaptureDays', 'recentFirstSeenMaxDays', 'siteLookupTimeoutMs'],
} as const;
