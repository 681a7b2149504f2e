// A certificate or favicon this host shares with hosts we flagged before. Our own history only: a third-party
// feed would need its own provenance, and the host under test is excluded by the history itself.
import type { ScanHistory } from '../../core/plugin-api.ts';
import type { Fingerprint } from '../_shared/fingerprints.ts';

export interface ReusedFingerprintMatch {
  fingerprint_type: 'cert_sha256' | 'favicon_hash';
  fingerprint_value: string;
  /** Distinct earlier flagged hosts carrying the same fingerprint. */
  distinct_sources: number;
  /** Up to ten of them, newest scan first, for the reviewer. */
  sources: { host: string; risk_level: string; scanned_at: string }[];
}

const SHOWN_SOURCES = 10;

/** The strongest reuse (most distinct flagged hosts; a certificate wins a tie, being the rarer coincidence). */
export async function findReusedFingerprint(
  history: ScanHistory,
  fingerprints: readonly Fingerprint[],
  host: string,
): Promise<ReusedFingerprintMatch | undefined> {
  let best: ReusedFingerprintMatch | undefined;
  for (const fp of fingerprints) {
    if (fp.kind === 'ip') continue;
    const matches = await history.flaggedWithFingerprint(fp.kind, fp.value, host);
    const hosts = new Map(matches.map((m) => [m.host, m]));
    if (hosts.size === 0 || (best && best.distinct_sources >= hosts.size)) continue;
    best = {
      fingerprint_type: fp.kind,
      fingerprint_value: fp.value,
      distinct_sources: hosts.size,
      sources: [...hosts.values()]
        .sort((a, b) => Date.parse(b.scanned_at) - Date.parse(a.scanned_at))
        .slice(0, SHOWN_SOURCES)
        .map((m) => ({ host: m.host, risk_level: m.risk_level, scanned_at: m.scanned_at })),
    };
  }
  return best;
}
