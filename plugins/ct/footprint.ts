import type { CtEntry, Finding } from '../../core/plugin-api.ts';
import type { CtConfig } from './config.ts';

export interface CtSummary {
  entry_count: number;
  newest_age_days?: number;
  oldest_age_days?: number;
  issuers: string[];
  sibling_domains: string[];
  has_wildcard: boolean;
  new_footprint: boolean;
}

export interface CtAges {
  newest?: number;
  oldest?: number;
  newestIssuer?: string;
}

function issuerLabel(entry: CtEntry): string {
  return entry.issuer_common_name ?? entry.issuer_organization ?? entry.issuer_name;
}

export function ctAges(entries: readonly CtEntry[]): CtAges {
  const ages: CtAges = {};
  for (const entry of entries) {
    const age = entry.age_days;
    if (age === undefined) continue;
    if (ages.newest === undefined || age < ages.newest) {
      ages.newest = age;
      ages.newestIssuer = issuerLabel(entry);
    }
    if (ages.oldest === undefined || age > ages.oldest) ages.oldest = age;
  }
  return ages;
}

/** Distinct issuers, newest certificate first (the client returns entries newest first). */
export function issuersOf(entries: readonly CtEntry[]): string[] {
  return [...new Set(entries.map(issuerLabel).filter(Boolean))];
}

/** No entries is no evidence: CT lag, a private CA or a plain-HTTP site, not a certificate history that just began. */
export function isNewFootprint(ages: CtAges, config: CtConfig): boolean {
  return ages.oldest !== undefined && ages.oldest <= config.footprintMaxOldestDays;
}

export function isFreshlyIssued(ages: CtAges, config: CtConfig): boolean {
  return ages.newest !== undefined && ages.newest <= config.freshMaxAgeDays;
}

const days = (n: number) => (n === 1 ? '1 day' : `${n} days`);

export function footprintFinding(summary: CtSummary, scope: readonly string[]): Finding {
  const oldest = summary.oldest_age_days!;
  const certificates = summary.entry_count === 1 ? '1 certificate' : `${summary.entry_count} certificates`;
  return {
    flag: 'ct:new_certificate_footprint',
    detail: `Certificate transparency logs ${certificates} for ${scope.join(' and ')}, the oldest issued ${days(oldest)} ago: the whole certificate history is that young.`,
    evidence: { entry_count: summary.entry_count, oldest_age_days: oldest, searched: [...scope] },
  };
}

export function freshFinding(ages: CtAges, scope: readonly string[]): Finding {
  return {
    flag: 'ct:freshly_issued_certificate',
    detail: `The newest logged certificate for ${scope.join(' and ')} was issued ${days(ages.newest!)} ago by ${ages.newestIssuer}.`,
    evidence: { newest_age_days: ages.newest, issuer: ages.newestIssuer },
  };
}

export function summaryLines(summary: CtSummary, scope: readonly string[], siteLookupFailed?: string): string[] {
  if (summary.entry_count === 0) return [`Certificate transparency logs no certificate for ${scope.join(' or ')}.`];
  const lines = [
    `Certificate transparency logs ${summary.entry_count} certificate(s) for ${scope.join(' and ')}: newest ${days(summary.newest_age_days ?? 0)} old, oldest ${days(summary.oldest_age_days ?? 0)} old, from ${summary.issuers.join(', ')}.`,
  ];
  if (siteLookupFailed) {
    lines.push(
      `The host's own certificates are all recent, but the registered site could not be searched (${siteLookupFailed}), so no new-footprint finding is made.`,
    );
  }
  if (summary.has_wildcard) lines.push("A wildcard name is on the host's certificates.");
  if (summary.sibling_domains.length > 0) {
    lines.push(`Other names on the host's certificates: ${summary.sibling_domains.join(', ')}.`);
  }
  return lines;
}
