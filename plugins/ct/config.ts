export interface CtConfig {
  /** ct:new_certificate_footprint when the oldest logged certificate is at most this many days old (inclusive). */
  footprintMaxOldestDays: number;
  /** ct:freshly_issued_certificate when the newest logged certificate is at most this many days old (inclusive). */
  freshMaxAgeDays: number;
  /** Cap on `sibling_domains`: a certificate can carry hundreds of names and the list lands in every scan result. */
  maxSiblingDomains: number;
  /** Budget for the extra search of the registered site when a subdomain's own history looks new. */
  siteLookupTimeoutMs: number;
}

export const DEFAULT_CT_CONFIG: CtConfig = {
  footprintMaxOldestDays: 30,
  freshMaxAgeDays: 7,
  maxSiblingDomains: 50,
  siteLookupTimeoutMs: 3_000,
};

export const CT_CONFIG_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    footprintMaxOldestDays: { type: 'integer', minimum: 0 },
    freshMaxAgeDays: { type: 'integer', minimum: 0 },
    maxSiblingDomains: { type: 'integer', minimum: 0, maximum: 1000 },
    siteLookupTimeoutMs: { type: 'integer', minimum: 100, maximum: 10_000 },
  },
  required: ['footprintMaxOldestDays', 'freshMaxAgeDays', 'maxSiblingDomains', 'siteLookupTimeoutMs'],
} as const;
