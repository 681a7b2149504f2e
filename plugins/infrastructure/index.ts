import { BrandCatalog, defineDetector, HostingCatalog, type PluginModule, ScanHistory } from '../../core/plugin-api.ts';
import { DEFAULT_INFRASTRUCTURE_CONFIG, INFRASTRUCTURE_CONFIG_SCHEMA, type InfrastructureConfig } from './config.ts';
import { nameSurface } from './name-surface.ts';
import { detectScan, type ScanDeps } from './scan.ts';
import weights from './weights.json' with { type: 'json' };

const detector = defineDetector<ScanDeps, InfrastructureConfig>({
  meta: {
    id: 'infrastructure',
    version: '1.1.0',
    description:
      'Hosting surface of the destination: bare IP literals and free-hosting tenants with their lure and brand signals (every surface); on scans also the hosting provider and ASN, abuse-associated networks, and certificates or favicons reused from hosts we flagged before.',
    surfaces: ['agent_action', 'scan'],
    // On agent_action detect() reads only the URL (and page text) with immutable catalogs: its output may be reused.
    deterministicOn: ['agent_action'],
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
      'infrastructure:hosting_provider_identified': {
        description: 'Provider recorded as evidence; no weight.',
        evidenceOnly: true,
      },
      'infrastructure:abuse_prone_hosting': {
        description: 'Provider or ASN matches an abuse-associated marker.',
      },
      'infrastructure:reused_known_bad_fingerprint': {
        description:
          'Certificate or favicon fingerprint shared with a previously flagged host (own scan history only; the host under test is excluded).',
      },
      'infrastructure:fresh_domain_certificate_lure': {
        description: 'Fresh domain plus fresh certificate plus lure evidence (rules/composites.json).',
        composite: true,
      },
    },
    configSchema: INFRASTRUCTURE_CONFIG_SCHEMA,
    defaultConfig: DEFAULT_INFRASTRUCTURE_CONFIG,
    bestEffort: true,
    timeoutMs: 2_000,
  },
  deps: { brands: BrandCatalog, hosting: HostingCatalog, history: ScanHistory },
  create: ({ deps, config }) => ({
    async detect(ctx) {
      if (ctx.surface === 'scan' && ctx.evidence) return detectScan(ctx.evidence, ctx.url, deps, config);
      const target = ctx.target;
      if (!target) return { findings: [] };
      const named = nameSurface(target, deps, { url: ctx.url, text: ctx.texts?.page_text });
      const { freeHosting, ...context } = named.surface;
      const data: Record<string, unknown> = { ...context };
      if (freeHosting && named.lure) {
        Object.assign(data, {
          free_hosting_provider: freeHosting.provider,
          free_hosting_tenant: freeHosting.tenantSite,
          lure_signals: named.lure.signals,
          brand_lures: named.lure.brandLures,
        });
      }
      data.enrichment_evidence = named.lines;
      return { findings: named.findings, data };
    },
  }),
});

export default detector;

/** Its one line in plugins/index.ts: the detector, the weights shipped beside it and any role it fills. */
export const plugin: PluginModule = { detector, weights };
