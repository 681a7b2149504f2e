// Who hosts the target, as host intelligence (the vendor's org, ISP and ASN for the resolved address) tells it,
// and whether that network is on the abuse-associated list.
import type { HostIntelResult } from '../../core/plugin-api.ts';
import type { AbuseMarker } from './config.ts';

export interface HostingClassification {
  hosting_provider?: string;
  asn?: number;
  abuse_prone: boolean;
  /** `AS44477` or the provider name that matched; null when nothing did. */
  matched_marker: string | null;
  /** Why the matched marker is on the list (for the evidence line). */
  marker_reason?: string;
}

/** Whole-word, case-insensitive: `M247` matches "M247 Europe SRL", `Aeza` does not match "Aezakmi Ltd". */
function namesProvider(text: string | undefined, provider: string): boolean {
  if (!text) return false;
  const words = (s: string) =>
    s
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean);
  const haystack = words(text.slice(0, 200));
  const needle = words(provider);
  if (needle.length === 0) return false;
  for (let i = 0; i + needle.length <= haystack.length; i++) {
    if (needle.every((w, j) => haystack[i + j] === w)) return true;
  }
  return false;
}

function matchMarker(
  markers: readonly AbuseMarker[],
  asn: number | undefined,
  names: readonly (string | undefined)[],
): { label: string; why: string } | undefined {
  for (const m of markers) {
    if (m.asn !== undefined && asn === m.asn) return { label: `AS${m.asn}`, why: m.why };
    if (m.provider && names.some((n) => namesProvider(n, m.provider!))) return { label: m.provider, why: m.why };
  }
  return undefined;
}

/** Undefined when host intelligence did not answer or named neither a provider nor an ASN. */
export function classifyHostingIntel(
  intel: HostIntelResult,
  markers: readonly AbuseMarker[],
): HostingClassification | undefined {
  if (!intel.ok) return undefined;
  const { org, isp, asn_number } = intel.value;
  const provider = org ?? isp;
  if (!provider && asn_number === undefined) return undefined;
  const marker = matchMarker(markers, asn_number, [org, isp]);
  return {
    ...(provider ? { hosting_provider: provider } : {}),
    ...(asn_number === undefined ? {} : { asn: asn_number }),
    abuse_prone: marker !== undefined,
    matched_marker: marker?.label ?? null,
    ...(marker ? { marker_reason: marker.why } : {}),
  };
}
