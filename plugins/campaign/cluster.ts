// Earlier flagged hosts that share this host's infrastructure, from our own scan history.
import type { ScanEvidence, ScanHistory, ScanHistoryMatch } from '../../core/plugin-api.ts';
import type { Fingerprint } from '../_shared/fingerprints.ts';
import type { CampaignConfig } from './config.ts';

const DAY_MS = 86_400_000;

export interface SharedInfrastructure extends Fingerprint {
  /** Earlier flagged hosts on it, sorted. */
  hosts: string[];
  /** Those of them scanned within the active window. */
  recent_hosts: string[];
}

export interface Cluster {
  related_hosts: string[];
  active_hosts: string[];
  shared: SharedInfrastructure[];
}

function matchesFor(history: ScanHistory, fp: Fingerprint, host: string, config: CampaignConfig) {
  return fp.kind === 'ip'
    ? history.flaggedOnAddress(fp.value, host, config.relatedIpWindowDays)
    : history.flaggedWithFingerprint(fp.kind, fp.value, host);
}

const hostsOf = (matches: readonly ScanHistoryMatch[]) => [...new Set(matches.map((m) => m.host))].sort();

export async function clusterOf(
  evidence: ScanEvidence,
  fingerprints: readonly Fingerprint[],
  history: ScanHistory,
  config: CampaignConfig,
): Promise<Cluster> {
  const host = evidence.target.host;
  // The scan's own clock, so a replayed or queued scan judges "recent" as of when it looked.
  const since = Date.parse(evidence.collected_at) - config.activeWindowDays * DAY_MS;
  const shared: SharedInfrastructure[] = [];
  for (const fp of fingerprints) {
    const matches = await matchesFor(history, fp, host, config);
    if (matches.length === 0) continue;
    const recent = matches.filter((m) => Date.parse(m.scanned_at) >= since);
    shared.push({ ...fp, hosts: hostsOf(matches), recent_hosts: hostsOf(recent) });
  }
  // Active is judged per piece of infrastructure: hosts tied to this one through different fingerprints need not
  // share anything with each other.
  const busy = shared.filter((s) => s.recent_hosts.length >= config.activeMinHosts);
  return {
    related_hosts: [...new Set(shared.flatMap((s) => s.hosts))].sort(),
    active_hosts: [...new Set(busy.flatMap((s) => s.recent_hosts))].sort(),
    shared,
  };
}
