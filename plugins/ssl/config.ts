export interface SslConfig {
  /** Leaf notBefore at most this many whole days ago raises ssl:very_recent_certificate (inclusive). */
  recentCertificateMaxDays: number;
  /** An HSTS max-age below this counts as no HSTS; `max-age=0` is how a site switches HSTS off. */
  minHstsMaxAgeSeconds: number;
}

export const DEFAULT_SSL_CONFIG: SslConfig = { recentCertificateMaxDays: 7, minHstsMaxAgeSeconds: 1 };

export const SSL_CONFIG_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    recentCertificateMaxDays: { type: 'integer', minimum: 0 },
    minHstsMaxAgeSeconds: { type: 'integer', minimum: 0 },
  },
  required: ['recentCertificateMaxDays', 'minHstsMaxAgeSeconds'],
} as const;
