// What the destination's name (and, on scans, its page) says about where it is hosted: the findings every
// surface shares. The agent fast path calls this alone; the scan adds host intelligence and history on top.
import type { BrandCatalog, Finding, HostingCatalog, Target } from '../../core/plugin-api.ts';
import { classifyHosting, type HostingSurface } from '../_shared/hosting-surface.ts';
import { brandLureLines, freeHostingLine, ipLiteralLine, lureLines } from './evidence.ts';
import { type BrandLure, brandLures, hasLure, type LureSignals, lureSignals } from './lure-signals.ts';

export interface NameSurface {
  surface: HostingSurface;
  findings: Finding[];
  /** Plain-language lines behind the findings, in the order they fired. */
  lines: string[];
  lure?: { signals: LureSignals; brandLures: BrandLure[] };
}

export function nameSurface(
  target: Target,
  catalogs: { brands: BrandCatalog; hosting: HostingCatalog },
  page: { url?: string; text?: string; loginForm?: boolean },
): NameSurface {
  const surface = classifyHosting(target, catalogs.hosting);
  const out: NameSurface = { surface, findings: [], lines: [] };
  if (surface.ip) {
    const line = ipLiteralLine(surface, page.url);
    out.lines.push(line);
    out.findings.push({ flag: 'infrastructure:ip_literal_surface', detail: line, evidence: { ip: surface.ip } });
  }
  const { freeHosting } = surface;
  if (!freeHosting) return out;
  const line = freeHostingLine(surface);
  out.lines.push(line);
  out.findings.push({ flag: 'infrastructure:free_hosting_surface', detail: line, evidence: { ...freeHosting } });
  const signals = lureSignals(target, freeHosting, page.text);
  // Only scans see the page's form; the agent fast path has no page and keeps its data shape.
  if (page.loginForm) signals.login_form = true;
  const lures = brandLures(target, catalogs.brands, signals, freeHosting);
  out.lure = { signals, brandLures: lures };
  if (hasLure(signals)) {
    const lines = lureLines(signals);
    out.lines.push(...lines);
    out.findings.push({ flag: 'infrastructure:free_hosting_lure', detail: lines.join(' '), evidence: { ...signals } });
  }
  if (lures.length > 0) {
    const lines = brandLureLines(lures, freeHosting.tenantSite);
    out.lines.push(...lines);
    out.findings.push({
      flag: 'infrastructure:brand_free_hosting_lure',
      detail: lines.join(' '),
      evidence: { brand_lures: lures },
    });
  }
  return out;
}
