import type { InjectionToken } from 'tsyringe';
import type { Target } from '../../engine/url/target.ts';
import type { BrowserCapture } from '../../evidence/browser/browser-capture.ts';
import type { CtEntry } from '../../evidence/sources/ct-client.ts';
import type { DnsReport } from '../../evidence/sources/dns-resolver.ts';
import type { HistoryCapture } from '../../evidence/sources/history-client.ts';
import type { HostIntelResult } from '../../evidence/sources/host-intel-client.ts';
import type { FetchResult } from '../../evidence/sources/http-fetcher.ts';
import type { Lookup } from '../../evidence/sources/lookup.ts';
import type { RdapDomain } from '../../evidence/sources/rdap-client.ts';
import type { TlsFacts } from '../../evidence/sources/tls-inspector.ts';
import type { FollowEvidence } from './one-hop-follow.ts';

/**
 * Everything a scan learned about a target, gathered once before any detector runs. Every source is best-effort:
 * a failed lookup is `{ok: false, reason}` and the detectors that need it stay silent.
 */
export interface ScanEvidence {
  target: Target;
  collected_at: string;
  dns: DnsReport;
  /** A and AAAA answers (the IP itself for an IP literal). */
  addresses: string[];
  rdap: Lookup<RdapDomain>;
  tls: Lookup<TlsFacts>;
  /** The page as fetched without a browser: every hop, headers, body, favicon. */
  page: FetchResult;
  ct: Lookup<CtEntry[]>;
  history: Lookup<HistoryCapture[]>;
  hostIntel: HostIntelResult;
  browser: BrowserCapture;
  /**
   * The one-hop follow: when the page asks for no secret but steers its visitor to one page (a sign-in link, a GET
   * form, its only link…), that page as fetched; otherwise why not (one-hop-follow.ts).
   */
  follow: FollowEvidence;
  /** Milliseconds each source took. */
  timings: Record<string, number>;
}

/** One earlier scan that shared a fingerprint or infrastructure with the target. */
export interface ScanHistoryMatch {
  host: string;
  scanned_at: string;
  risk_level: string;
  flags: string[];
}

/**
 * Our own scan history, as detectors may query it (reused fingerprints, campaign clustering). Only flagged hosts
 * (risk `high` or `critical`) are returned, and the host under test is always excluded.
 */
export interface ScanHistory {
  flaggedWithFingerprint(
    kind: 'cert_sha256' | 'favicon_hash',
    value: string,
    excludeHost: string,
  ): Promise<ScanHistoryMatch[]>;
  flaggedOnAddress(ip: string, excludeHost: string, withinDays: number): Promise<ScanHistoryMatch[]>;
}
export const ScanHistory: InjectionToken<ScanHistory> = Symbol('ScanHistory');
