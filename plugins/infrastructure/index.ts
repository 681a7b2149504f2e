import { defineDetector, type Finding } from '../../core/detector.ts';
import { BrandCatalog, HostingCatalog } from '../../core/url/catalogs.ts';
import { brandLureLines, freeHostingLine, ipLiteralLine, lureLines } from './evidence.ts';
import { classifyHosting } from './hosting-surface.ts';
import { brandLures, hasLure, lureSignals } from './lure-signals.ts';

export default defineDetector({
  meta: {
    id: 'infrastructure',
    version: '1.0.0',
    description:
      'Hosting surface of the destination read from its name: bare IP literals and tenants of curated free-hosting platforms, with the lure and brand signals around them.',
    surfaces: ['agent_action', 'scan'],
    flags: {
      'infrastructure:ip_literal_surface': { description: 'Target is a bare IP.' },
      'infrastructure:free_hosting_surface': { description: 'Multi-workspace free-hosting surface.' },
      'infrastructure:free_hosting_lure': {
        description:
          'Free-hosting surface plus lure signals (login forms, brand abuse, OAuth or OpenID evidence, redirect abuse).',
      },
      'infrastructure:brand_free_hosting_lure': {
        description: 'Curated free hosting plus trusted-brand lure signals.',
      },
    },
    timeoutMs: 1_000,
  },
  deps: { brands: BrandCatalog, hosting: HostingCatalog },
  create: ({ deps }) => ({
    detect(ctx) {
      const target = ctx.target;
      if (!target) return { findings: [] };
      const surface = classifyHosting(target, deps.hosting);
      const findings: Finding[] = [];
      const evidence: string[] = [];
      if (surface.ip) {
        const line = ipLiteralLine(surface, ctx.url);
        evidence.push(line);
        findings.push({ flag: 'infrastructure:ip_literal_surface', detail: line, evidence: { ip: surface.ip } });
      }
      const { freeHosting, ...context } = surface;
      const data: Record<string, unknown> = { ...context };
      if (freeHosting) {
        const line = freeHostingLine(surface);
        evidence.push(line);
        findings.push({ flag: 'infrastructure:free_hosting_surface', detail: line, evidence: { ...freeHosting } });
        const signals = lureSignals(target, freeHosting, ctx.texts?.page_text);
        const lures = brandLures(target, deps.brands, signals);
        Object.assign(data, {
          free_hosting_provider: freeHosting.provider,
          free_hosting_tenant: freeHosting.tenantSite,
          lure_signals: signals,
          brand_lures: lures,
        });
        if (hasLure(signals)) {
          const lines = lureLines(signals);
          evidence.push(...lines);
          findings.push({
            flag: 'infrastructure:free_hosting_lure',
            detail: lines.join(' '),
            evidence: { ...signals },
          });
        }
        if (lures.length > 0) {
          const lines = brandLureLines(lures, freeHosting.tenantSite);
          evidence.push(...lines);
          findings.push({
            flag: 'infrastructure:brand_free_hosting_lure',
            detail: lines.join(' '),
            evidence: { brand_lures: lures },
          });
        }
      }
      data.enrichment_evidence = evidence;
      return { findings, data };
    },
  }),
});
