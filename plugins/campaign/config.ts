export interface CampaignConfig {
  /** An address is only evidence of shared infrastructure for this long: addresses get reassigned. */
  relatedIpWindowDays: number;
  /** "Active" means recent: flagged hosts seen on the same infrastructure within this many days. */
  activeWindowDays: number;
  /** Distinct earlier flagged hosts on one piece of infrastructure, within the window, that make it active. */
  activeMinHosts: number;
  /**
   * Host-intel organisations whose addresses front many unrelated customers (matched as substrings,
   * case-insensitive): sharing an address with a flagged site there says nothing about the operator.
   */
  sharedIpProviders: string[];
}

export const DEFAULT_CAMPAIGN_CONFIG: CampaignConfig = {
  relatedIpWindowDays: 30,
  activeWindowDays: 7,
  activeMinHosts: 3,
  sharedIpProviders: [
    'Cloudflare',
    'Akamai',
    'Fastly',
    'CloudFront',
    'Google',
    'Amazon',
    'Microsoft',
    'Vercel',
    'Netlify',
    'GitHub',
    'Automattic',
    'Shopify',
    'Squarespace',
    'Wix',
    'Incapsula',
    'Imperva',
    'Sucuri',
    'StackPath',
    'Edgecast',
    'Bunny',
  ],
};

export const CAMPAIGN_CONFIG_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['relatedIpWindowDays', 'activeWindowDays', 'activeMinHosts', 'sharedIpProviders'],
  properties: {
    relatedIpWindowDays: { type: 'integer', minimum: 1, maximum: 365 },
    activeWindowDays: { type: 'integer', minimum: 1, maximum: 90 },
    activeMinHosts: { type: 'integer', minimum: 2, maximum: 50 },
    sharedIpProviders: { type: 'array', items: { type: 'string', minLength: 2, maxLength: 100 } },
  },
} as const;
