/**
 * One abuse-associated hosting marker. A marker matches on the ASN number, or on the provider name as whole words
 * in the host-intelligence organisation or ISP. `why` is shown to reviewers: a marker nobody can justify goes.
 */
export interface AbuseMarker {
  asn?: number;
  provider?: string;
  why: string;
}

export interface InfrastructureConfig {
  abuseProneMarkers: AbuseMarker[];
}

/**
 * Deliberately short. Mainstream clouds and cheap VPS brands (DigitalOcean, Hetzner, OVH, Hostinger, Namecheap,
 * Contabo…) carry a lot of phishing in absolute numbers, but far more honest sites: marking them would make this
 * flag fire on a large share of the web and teach reviewers to ignore it. Only networks whose abuse is documented
 * as a business model (sanctions, bulletproof-hosting reports) or that are dominated by throw-away rented capacity
 * are listed; a deployment adds its own in `rules/local` plugin config.
 */
export const DEFAULT_INFRASTRUCTURE_CONFIG: InfrastructureConfig = {
  abuseProneMarkers: [
    {
      asn: 44477,
      provider: 'Stark Industries',
      why: 'Bulletproof-style host; sanctioned by the EU (May 2025) for enabling attacks and disinformation.',
    },
    {
      asn: 210644,
      provider: 'Aeza',
      why: 'Sanctioned by the US Treasury (July 2025) as a bulletproof host for ransomware and infostealers.',
    },
    {
      asn: 198953,
      provider: 'Proton66',
      why: 'Reported by several threat-intelligence teams (2025) as bulletproof hosting for phishing and malware.',
    },
    {
      provider: 'Zservers',
      why: 'Sanctioned by the US Treasury (February 2025) as bulletproof hosting for LockBit affiliates.',
    },
    {
      asn: 9009,
      provider: 'M247',
      why: 'Rented VPN and throw-away VPS capacity; a fixture of network-abuse and phishing-kit hosting reports.',
    },
  ],
};

export const INFRASTRUCTURE_CONFIG_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['abuseProneMarkers'],
  properties: {
    abuseProneMarkers: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['why'],
        anyOf: [{ required: ['asn'] }, { required: ['provider'] }],
        properties: {
          asn: { type: 'integer', minimum: 1, maximum: 4294967295 },
          provider: { type: 'string', minLength: 3, maxLength: 100 },
          why: { type: 'string', minLength: 1 },
        },
      },
    },
  },
} as const;
