// Which of a scan's fingerprints may tie it to other hosts in our scan history. Shared by the reused-fingerprint
// flag here and the campaign plugin: both must refuse the same "fingerprints" that every tenant of a platform or
// every copy of a brand's logo has, or one flagged tenant would taint thousands of honest ones.
import { parse } from 'tldts';
import type { BrandCatalog, HostingCatalog, ScanEvidence } from '../../core/plugin-api.ts';
import { brandOwning } from '../../core/plugin-api.ts';
import { classifyHosting } from './hosting-surface.ts';

export type FingerprintKind = 'cert_sha256' | 'favicon_hash' | 'ip';

export interface Fingerprint {
  kind: FingerprintKind;
  value: string;
}

export interface FingerprintSelection {
  fingerprints: Fingerprint[];
  /** Fingerprints the scan had but that identify a platform or a brand rather than an operator. */
  skipped: { kind: FingerprintKind; reason: string }[];
}

/** `*.pages.dev`: a wildcard directly over a public (or private platform) suffix covers every tenant there. */
export function isPlatformWildcard(san: string): boolean {
  if (!san.startsWith('*.')) return false;
  const base = san.slice(2).toLowerCase();
  const parsed = parse(base, { allowPrivateDomains: true });
  return !parsed.isIp && parsed.domain === null && parsed.publicSuffix === base;
}

/** Names of host-intel organisations whose addresses front many unrelated customers (CDNs, edge platforms). */
function onSharedAddress(evidence: ScanEvidence, sharedIpProviders: readonly string[]): string | undefined {
  if (!evidence.hostIntel.ok) return undefined;
  const names = [evidence.hostIntel.value.org, evidence.hostIntel.value.isp].map((n) => n?.toLowerCase() ?? '');
  return sharedIpProviders.find((p) => names.some((n) => n.includes(p.toLowerCase())));
}

export function clusterableFingerprints(
  evidence: ScanEvidence,
  catalogs: { brands: BrandCatalog; hosting: HostingCatalog },
  options: { withIp: boolean; sharedIpProviders?: readonly string[] },
): FingerprintSelection {
  const { target } = evidence;
  const out: FingerprintSelection = { fingerprints: [], skipped: [] };
  // A brand's own site shares its favicon (and sometimes certificates) with every kit that copied it.
  if (brandOwning(target, catalogs.brands)) {
    out.skipped.push({ kind: 'cert_sha256', reason: 'brand_owned' }, { kind: 'favicon_hash', reason: 'brand_owned' });
    return out;
  }
  if (evidence.tls.ok) {
    const tls = evidence.tls.value;
    if (tls.sans.some(isPlatformWildcard)) out.skipped.push({ kind: 'cert_sha256', reason: 'platform_wildcard' });
    else out.fingerprints.push({ kind: 'cert_sha256', value: tls.fingerprint_sha256 });
  }
  if (evidence.page.favicon) out.fingerprints.push({ kind: 'favicon_hash', value: String(evidence.page.favicon.hash) });
  if (!options.withIp) return out;
  const ip = target.isIp ? target.host : evidence.addresses[0];
  if (!ip) return out;
  const shared = onSharedAddress(evidence, options.sharedIpProviders ?? []);
  if (classifyHosting(target, catalogs.hosting).hosting_tenancy === 'shared_multi_tenant') {
    out.skipped.push({ kind: 'ip', reason: 'shared_multi_tenant' });
  } else if (shared) {
    out.skipped.push({ kind: 'ip', reason: `shared_address_provider:${shared}` });
  } else {
    out.fingerprints.push({ kind: 'ip', value: ip });
  }
  return out;
}
