// Plain-language lines for `infrastructure.data.enrichment_evidence`: what a reviewer reads instead of flags.
import type { HostingSurface } from './hosting-surface.ts';
import type { BrandLure, LureSignals } from './lure-signals.ts';

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
