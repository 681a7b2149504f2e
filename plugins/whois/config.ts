/** Registration-age thresholds in whole days, inclusive: "registered within 60 days" includes day 60. */
export interface WhoisConfig {
  veryRecentMaxDays: number;
  ultraRecentMaxDays: number;
}

export const DEFAULT_WHOIS_CONFIG: WhoisConfig = { veryRecentMaxDays: 60, ultraRecentMaxDays: 7 };

export const WHOIS_CONFIG_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    veryRecentMaxDays: { type: 'integer', minimum: 0, description: 'whois:very_recent_registration at or below' },
    ultraRecentMaxDays: { type: 'integer', minimum: 0, description: 'whois:ultra_recent_registration at or below' },
  },
  required: ['veryRecentMaxDays', 'ultraRecentMaxDays'],
} as const;
