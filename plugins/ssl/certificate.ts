import type { Finding, TlsFacts } from '../../core/plugin-api.ts';

/** The leaf fields the spec publishes under `detailed_results.ssl`; absent values stay absent. */
export function certificateFields(tls: TlsFacts): Record<string, string | number> {
  return {
    ...(tls.issuer_common_name ? { issuer_common_name: tls.issuer_common_name } : {}),
    ...(tls.issuer_organization ? { issuer_organization: tls.issuer_organization } : {}),
    ...(tls.subject_common_name ? { subject_common_name: tls.subject_common_name } : {}),
    ...(tls.cert_age_days === undefined ? {} : { cert_age_days: tls.cert_age_days }),
  };
}

function issuerLabel(tls: TlsFacts): string {
  const parts = [tls.issuer_organization, tls.issuer_common_name].filter(Boolean);
  return parts.length > 0 ? parts.join(' ') : 'an unnamed issuer';
}

/** Renewals also produce young certificates, so this only corroborates; the README explains the low weight. */
export function recentCertificateFinding(tls: TlsFacts, maxDays: number): Finding | undefined {
  const age = tls.cert_age_days;
  if (age === undefined || age > maxDays) return undefined;
  const days = age === 1 ? '1 day' : `${age} days`;
  return {
    flag: 'ssl:very_recent_certificate',
    detail: `The certificate served for ${tls.host} was issued ${days} ago by ${issuerLabel(tls)} (notBefore ${tls.not_before}).`,
    evidence: {
      cert_age_days: age,
      not_before: tls.not_before,
      issuer: issuerLabel(tls),
      fingerprint_sha256: tls.fingerprint_sha256,
    },
  };
}
