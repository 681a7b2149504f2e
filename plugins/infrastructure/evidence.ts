// Plain-language lines for `infrastructure.data.enrichment_evidence`: what a reviewer reads instead of flags.

import type { HostingSurface } from '../_shared/hosting-surface.ts';
import type { HostingClassification } from './hosting-intel.ts';
import type { BrandLure, LureSignals } from './lure-signals.ts';
import type { ReusedFingerprintMatch } from './reused-fingerprint.ts';

export function ipLiteralLine(surface: HostingSurface, rawUrl: string | undefined): string {
  const spelled =
    rawUrl && !rawUrl.includes(surface.ip ?? '') ? ` (written as ${JSON.stringify(rawUrl.slice(0, 120))})` : '';
  return `The destination is the bare IP address ${surface.ip}${spelled}, not a domain name: nothing names who runs it.`;
}

export function freeHostingLine(surface: HostingSurface): string {
  const fh = surface.freeHosting!;
  return `${surface.host} is a tenant site (${fh.tenantSite}) on ${fh.provider} (${fh.suffix}), a free multi-tenant hosting platform where anyone can publish; the tenant is judged, not the platform.`;
}

export function lureLines(signals: LureSignals): string[] {
  const lines: string[] = [];
  if (signals.lure_words.length > 0) {
    lines.push(`Credential-lure words in the tenant name or path: ${signals.lure_words.join(', ')}.`);
  }
  if (signals.authorize_flow) lines.push('The URL is an OAuth/OpenID authorize request served from free hosting.');
  if (signals.credential_form_terms.length > 0) {
    lines.push(`The page text asks for credentials: "${signals.credential_form_terms.join('", "')}".`);
  }
  if (signals.login_form) lines.push('The page has a login form (a password field).');
  for (const r of signals.offsite_redirects) {
    lines.push(`The ${r.param} parameter sends visitors on to another site, ${r.host}.`);
  }
  return lines;
}

export function brandLureLines(lures: readonly BrandLure[], tenantSite: string): string[] {
  return lures.map(
    (l) =>
      `${l.brand_name} is named in the ${l.where === 'tenant' ? 'tenant name' : 'path'} ("${l.matched}") of ${tenantSite}, a free-hosting tenant ${l.brand_name} does not own.`,
  );
}

export function hostingLines(c: HostingClassification, ip: string | undefined): string[] {
  const who = [c.hosting_provider, c.asn === undefined ? undefined : `AS${c.asn}`].filter(Boolean).join(', ');
  const lines = [`Hosted by ${who}${ip ? ` (address ${ip})` : ''}, according to host intelligence.`];
  if (c.abuse_prone) {
    lines.push(`${c.matched_marker} is on the abuse-associated hosting list: ${c.marker_reason ?? 'no reason given'}`);
  }
  return lines;
}

const FINGERPRINT_WORDING: Record<ReusedFingerprintMatch['fingerprint_type'], string> = {
  cert_sha256: 'TLS certificate',
  favicon_hash: 'favicon',
};

export function reusedFingerprintLine(m: ReusedFingerprintMatch): string {
  const hosts = m.sources.map((s) => s.host).join(', ');
  const more = m.distinct_sources > m.sources.length ? ` and ${m.distinct_sources - m.sources.length} more` : '';
  return `The same ${FINGERPRINT_WORDING[m.fingerprint_type]} was seen on ${m.distinct_sources} host(s) we flagged before: ${hosts}${more}.`;
}
