import type { Finding, RdapDomain } from '../../core/plugin-api.ts';
import type { WhoisConfig } from './config.ts';

export interface RegistrationSummary {
  registered?: string;
  registrar?: string;
  age_days?: number;
  source_url: string;
}

export function summariseRegistration(rdap: RdapDomain): RegistrationSummary {
  return {
    ...(rdap.registered ? { registered: rdap.registered } : {}),
    ...(rdap.registrar ? { registrar: rdap.registrar } : {}),
    ...(rdap.age_days === undefined ? {} : { age_days: rdap.age_days }),
    source_url: rdap.source_url,
  };
}

function ageLine(domain: string, ageDays: number, registrar: string | undefined): string {
  const days = ageDays === 1 ? '1 day' : `${ageDays} days`;
  const by = registrar ? ` through ${registrar}` : '';
  return `${domain} was registered ${days} ago${by} (RDAP registration event).`;
}

/**
 * Age flags from the RDAP registration event. No registration date means no finding: an unknown age is not a
 * young one.
 */
export function registrationFindings(rdap: RdapDomain, config: WhoisConfig): Finding[] {
  const age = rdap.age_days;
  if (age === undefined || age > config.veryRecentMaxDays) return [];
  const line = ageLine(rdap.domain, age, rdap.registrar);
  const evidence = { domain: rdap.domain, age_days: age, ...(rdap.registered ? { registered: rdap.registered } : {}) };
  const findings: Finding[] = [
    {
      flag: 'whois:very_recent_registration',
      detail: `${line} Within the ${config.veryRecentMaxDays}-day window.`,
      evidence,
    },
  ];
  if (age <= config.ultraRecentMaxDays) {
    findings.push({
      flag: 'whois:ultra_recent_registration',
      detail: `${line} Within the ${config.ultraRecentMaxDays}-day window.`,
      evidence,
    });
  }
  return findings;
}
