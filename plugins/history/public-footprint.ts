import type { Finding, HistoryCapture } from '../../core/plugin-api.ts';
import type { HistoryConfig } from './config.ts';

export interface DomainHistory {
  first_seen_days_ago?: number;
  /** Distinct UTC days with at least one capture: a crawler hammering one day is still one day of presence. */
  capture_days: number;
  no_public_history: boolean;
  thin_public_footprint: boolean;
}

export function captureDays(captures: readonly HistoryCapture[]): number {
  return new Set(captures.map((c) => c.date.slice(0, 10))).size;
}

export function firstSeenDaysAgo(captures: readonly HistoryCapture[]): number | undefined {
  return captures.length === 0 ? undefined : Math.max(...captures.map((c) => c.age_days));
}

export function summariseHistory(captures: readonly HistoryCapture[], config: HistoryConfig): DomainHistory {
  const firstSeen = firstSeenDaysAgo(captures);
  const days = captureDays(captures);
  return {
    ...(firstSeen === undefined ? {} : { first_seen_days_ago: firstSeen }),
    capture_days: days,
    no_public_history: captures.length === 0,
    thin_public_footprint: days <= config.thinMaxCaptureDays,
  };
}

/** No capture at all has no "first seen": the thin-footprint flag already says it. */
export function isRecentFirstSeen(history: DomainHistory, config: HistoryConfig): boolean {
  return history.first_seen_days_ago !== undefined && history.first_seen_days_ago <= config.recentFirstSeenMaxDays;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function thinFinding(history: DomainHistory, scope: readonly string[]): Finding {
  const what = history.no_public_history
    ? 'has never been captured'
    : `was captured on only ${plural(history.capture_days, 'day')}`;
  return {
    flag: 'history:thin_public_footprint',
    detail: `The public web archive ${what} for ${scope.join(' or ')}: the site has little or no public history.`,
    evidence: { capture_days: history.capture_days, searched: [...scope] },
  };
}

export function recentFirstSeenFinding(history: DomainHistory, scope: readonly string[]): Finding {
  return {
    flag: 'history:recent_first_seen',
    detail: `The earliest archived capture of ${scope.join(' or ')} is ${plural(history.first_seen_days_ago!, 'day')} old.`,
    evidence: { first_seen_days_ago: history.first_seen_days_ago, searched: [...scope] },
  };
}

export function historyLines(history: DomainHistory, scope: readonly string[], siteLookupFailed?: string): string[] {
  const where = scope.join(' or ');
  const lines = history.no_public_history
    ? [`The public web archive has no capture of ${where}.`]
    : [
        `The public web archive captured ${where} on ${plural(history.capture_days, 'day')}, first ${plural(history.first_seen_days_ago ?? 0, 'day')} ago.`,
      ];
  if (siteLookupFailed) {
    lines.push(
      `The host's own archive history is thin or recent, but the registered site could not be looked up (${siteLookupFailed}), so no finding is made.`,
    );
  }
  return lines;
}
