import type { HostService, ScanEvidence } from '../../core/plugin-api.ts';

export interface HostContext {
  cert_fingerprint_sha256?: string;
  favicon_hash?: number;
  ip?: string;
  vendor: string;
  queried_vendor: boolean;
  asn_org?: string;
  open_ports?: number[];
  services?: HostService[];
}

/** Fingerprints need no setup; vendor fields exist only when a host-intelligence key made the lookup happen. */
export function hostContext(evidence: ScanEvidence): HostContext {
  const { tls, page, hostIntel } = evidence;
  const ip = hostIntel.ok ? hostIntel.value.ip : evidence.addresses[0];
  const vendorFacts = hostIntel.queried_vendor && hostIntel.ok ? hostIntel.value : undefined;
  const asnOrg = vendorFacts?.org ?? vendorFacts?.isp;
  return {
    ...(tls.ok ? { cert_fingerprint_sha256: tls.value.fingerprint_sha256 } : {}),
    ...(page.favicon ? { favicon_hash: page.favicon.hash } : {}),
    ...(ip ? { ip } : {}),
    vendor: hostIntel.vendor,
    queried_vendor: hostIntel.queried_vendor,
    ...(vendorFacts
      ? { ...(asnOrg ? { asn_org: asnOrg } : {}), open_ports: vendorFacts.ports, services: vendorFacts.services }
      : {}),
  };
}

function serviceLabel(service: HostService): string {
  const name = service.product ?? service.module;
  return name ? `${service.port}/${service.transport} (${name})` : `${service.port}/${service.transport}`;
}

export function hostContextLines(context: HostContext, hostIntelFailure?: string): string[] {
  const lines: string[] = [];
  if (context.ip) lines.push(`The host resolves to ${context.ip}.`);
  if (context.cert_fingerprint_sha256) {
    lines.push(`The leaf certificate's SHA-256 fingerprint is ${context.cert_fingerprint_sha256}.`);
  }
  if (context.favicon_hash !== undefined)
    lines.push(`The favicon hash (mmh3, Shodan style) is ${context.favicon_hash}.`);
  if (!context.queried_vendor) {
    lines.push(`Host intelligence (${context.vendor}) was not queried: no vendor key is configured or no address.`);
  } else if (hostIntelFailure) {
    lines.push(`Host intelligence (${context.vendor}) was queried but gave no answer (${hostIntelFailure}).`);
  } else {
    const org = context.asn_org ? `the network belongs to ${context.asn_org}` : 'no network owner is named';
    const ports = context.open_ports?.length ? `open ports ${context.open_ports.join(', ')}` : 'no open ports listed';
    lines.push(`Host intelligence (${context.vendor}): ${org}; ${ports}.`);
    if (context.services?.length) lines.push(`Services seen: ${context.services.map(serviceLabel).join(', ')}.`);
  }
  return lines;
}
