// Whether a scan saw anything at all. When DNS gave no address, and neither HTTP(S) nor TLS answered, the detectors
// had nothing to judge: a score of 0 then means "no evidence", not "clean", and the scan result says so.
import type { ScanEvidence } from './evidence.ts';

export interface EvidenceCoverage {
  /** True when DNS, HTTP and TLS all failed (or, for an IP literal, HTTP and TLS). */
  degraded: boolean;
  /** One line per failed core source, e.g. `dns: not_found`, `http: refused`, `tls: timeout`. */
  reasons: string[];
}

export function evidenceCoverage(evidence: ScanEvidence): EvidenceCoverage {
  const reasons: string[] = [];
  const dnsFailed = !evidence.target.isIp && evidence.addresses.length === 0;
  if (dnsFailed) {
    const failures = [...new Set(Object.values(evidence.dns.failures))];
    reasons.push(`dns: ${failures.join(', ') || 'no address'}`);
  }
  const httpFailed = !evidence.page.final;
  if (httpFailed) reasons.push(`http: ${evidence.page.error?.reason ?? 'no response'}`);
  const tlsFailed = !evidence.tls.ok;
  if (!evidence.tls.ok) reasons.push(`tls: ${evidence.tls.reason}`);
  const degraded = (evidence.target.isIp || dnsFailed) && httpFailed && tlsFailed;
  return { degraded, reasons: degraded ? reasons : [] };
}
