// The scan surface: the name-based findings, fed the fetched page, plus host intelligence (provider, ASN, abuse
// markers) and our own history (reused certificate or favicon). Data comes back as detailed_results paths.
import type {
  BrandCatalog,
  DetectorOutput,
  Finding,
  HostingCatalog,
  ScanEvidence,
  ScanHistory,
} from '../../core/plugin-api.ts';
import { clusterableFingerprints } from '../_shared/fingerprints.ts';
import { pageCues } from '../_shared/page-cues.ts';
import type { InfrastructureConfig } from './config.ts';
import { hostingLines, reusedFingerprintLine } from './evidence.ts';
import { classifyHostingIntel, type HostingClassification } from './hosting-intel.ts';
import { nameSurface } from './name-surface.ts';
import { findReusedFingerprint, type ReusedFingerprintMatch } from './reused-fingerprint.ts';

export interface ScanDeps {
  brands: BrandCatalog;
  hosting: HostingCatalog;
  history: ScanHistory;
}

function hostingFindings(c: HostingClassification, lines: readonly string[]): Finding[] {
  const findings: Finding[] = [
    {
      flag: 'infrastructure:hosting_provider_identified',
      detail: lines[0]!,
      evidence: { hosting_provider: c.hosting_provider ?? null, asn: c.asn ?? null },
    },
  ];
  if (c.abuse_prone) {
    findings.push({
      flag: 'infrastructure:abuse_prone_hosting',
      detail: lines[1]!,
      evidence: { matched_marker: c.matched_marker, asn: c.asn ?? null, hosting_provider: c.hosting_provider ?? null },
    });
  }
  return findings;
}

/** A history outage must not cost the scan its other infrastructure findings: no match, no field. */
async function reusedFingerprint(evidence: ScanEvidence, deps: ScanDeps): Promise<ReusedFingerprintMatch | undefined> {
  const { fingerprints } = clusterableFingerprints(evidence, deps, { withIp: false });
  try {
    return await findReusedFingerprint(deps.history, fingerprints, evidence.target.host);
  } catch {
    return undefined;
  }
}

export async function detectScan(
  evidence: ScanEvidence,
  url: string | undefined,
  deps: ScanDeps,
  config: InfrastructureConfig,
): Promise<DetectorOutput> {
  const { target } = evidence;
  const cues = pageCues(evidence);
  const named = nameSurface(target, deps, { url, text: cues?.text, loginForm: cues?.password_field });
  const findings = [...named.findings];
  const lines = [...named.lines];
  const ip = named.surface.ip ?? evidence.addresses[0];

  const classification = classifyHostingIntel(evidence.hostIntel, config.abuseProneMarkers);
  const hostingEvidence = classification ? hostingLines(classification, ip) : undefined;
  if (classification && hostingEvidence) {
    findings.push(...hostingFindings(classification, hostingEvidence));
    lines.push(...hostingEvidence);
  }

  const reused = await reusedFingerprint(evidence, deps);
  if (reused) {
    const line = reusedFingerprintLine(reused);
    lines.push(line);
    findings.push({ flag: 'infrastructure:reused_known_bad_fingerprint', detail: line, evidence: { ...reused } });
  }

  const { surface } = named;
  const shared = surface.hosting_tenancy === 'shared_multi_tenant';
  const sharedProvider = surface.freeHosting?.provider ?? (shared ? classification?.hosting_provider : undefined);
  const rdap = evidence.rdap.ok ? evidence.rdap.value : undefined;
  const tls = evidence.tls.ok ? evidence.tls.value : undefined;
  const data: Record<string, unknown> = {
    infrastructure: {
      host: surface.host,
      ...(ip ? { ip } : {}),
      ...(classification?.asn === undefined ? {} : { asn: classification.asn }),
      ...(classification?.hosting_provider ? { hosting_provider: classification.hosting_provider } : {}),
      hosting_tenancy: surface.hosting_tenancy,
      ...(sharedProvider ? { shared_hosting_provider: sharedProvider } : {}),
      ...(surface.shared_hosting_suffix ? { shared_hosting_suffix: surface.shared_hosting_suffix } : {}),
      ...(surface.freeHosting ? { free_hosting_provider: surface.freeHosting.provider } : {}),
      ...(rdap?.age_days === undefined ? {} : { domain_age_days: rdap.age_days }),
      ...(tls?.cert_age_days === undefined ? {} : { tls_age_days: tls.cert_age_days }),
    },
    'infrastructure.data.enrichment_evidence': lines,
  };
  if (surface.freeHosting && named.lure) {
    data['infrastructure.data.free_hosting_tenant'] = surface.freeHosting.tenantSite;
    data['infrastructure.data.lure_signals'] = named.lure.signals;
    data['infrastructure.data.brand_lures'] = named.lure.brandLures;
  }
  if (reused) data['infrastructure.data.reused_fingerprint_match'] = reused;
  if (classification && hostingEvidence) {
    data['geolocation.data.hosting_classification'] = {
      hosting_provider: classification.hosting_provider ?? null,
      asn: classification.asn ?? null,
      abuse_prone: classification.abuse_prone,
      matched_marker: classification.matched_marker,
    };
    data['geolocation.data.hosting_evidence'] = hostingEvidence;
  }
  return { findings, data };
}
