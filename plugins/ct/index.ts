import type { Lookup, PluginModule } from '../../core/plugin-api.ts';
import { CtClient, type CtEntry, type DetectionContext, defineDetector, type Finding } from '../../core/plugin-api.ts';
import { CT_CONFIG_SCHEMA, type CtConfig, DEFAULT_CT_CONFIG } from './config.ts';
import {
  type CtSummary,
  ctAges,
  footprintFinding,
  freshFinding,
  isFreshlyIssued,
  isNewFootprint,
  issuersOf,
  summaryLines,
} from './footprint.ts';
import { siblingDomains } from './sibling-domains.ts';
import weights from './weights.json' with { type: 'json' };

interface Footprint {
  entries: readonly CtEntry[];
  scope: string[];
  /** Set when the registered site had to be searched and the search failed. */
  siteLookupFailed?: string;
}

/**
 * A new subdomain of an old site has a young certificate history of its own; the site's history is the one that
 * says whether the owner just appeared. Searched only when the host alone would look new.
 */
async function footprintOf(
  ctx: DetectionContext,
  hostEntries: readonly CtEntry[],
  search: (domain: string) => Promise<Lookup<CtEntry[]>>,
  config: CtConfig,
): Promise<Footprint> {
  const target = ctx.evidence!.target;
  const hostOnly: Footprint = { entries: hostEntries, scope: [target.host] };
  if (target.isIp || target.site === target.host || !isNewFootprint(ctAges(hostEntries), config)) return hostOnly;
  const site = await search(target.site);
  if (!site.ok) return { ...hostOnly, siteLookupFailed: site.reason };
  const seen = new Set(hostEntries.map((e) => e.id));
  return { entries: [...hostEntries, ...site.value.filter((e) => !seen.has(e.id))], scope: [target.host, target.site] };
}

const detector = defineDetector<{ ct: CtClient }, CtConfig>({
  meta: {
    id: 'ct',
    version: '1.0.0',
    description:
      'Certificate-transparency history of the host: how long certificates have been issued for it (and for its registered site), who issued them, and the other names they carry.',
    surfaces: ['scan'],
    flags: {
      'ct:new_certificate_footprint': { description: 'Whole certificate history only just appeared. Modest weight.' },
      'ct:freshly_issued_certificate': {
        description: 'Newest certificate issued in the last few days. Evidence only; no weight.',
        evidenceOnly: true,
      },
    },
    configSchema: CT_CONFIG_SCHEMA,
    defaultConfig: DEFAULT_CT_CONFIG,
    bestEffort: true,
    timeoutMs: 4_000,
  },
  deps: { ct: CtClient },
  create: ({ deps, config }) => ({
    async detect(ctx) {
      const evidence = ctx.evidence;
      if (!evidence?.ct.ok) return { findings: [] };
      const host = evidence.target.host;
      const hostEntries = evidence.ct.value;
      const search = (domain: string) =>
        deps.ct.search(domain, { signal: ctx.signal, timeoutMs: config.siteLookupTimeoutMs });
      const footprint = await footprintOf(ctx, hostEntries, search, config);
      const ages = ctAges(footprint.entries);
      // Siblings come from the host's own certificates (and the one it serves), never from the site's.
      const hostNames = [...hostEntries.flatMap((e) => e.names), ...(evidence.tls.ok ? evidence.tls.value.sans : [])];
      const summary: CtSummary = {
        entry_count: footprint.entries.length,
        ...(ages.newest === undefined ? {} : { newest_age_days: ages.newest }),
        ...(ages.oldest === undefined ? {} : { oldest_age_days: ages.oldest }),
        issuers: issuersOf(footprint.entries),
        sibling_domains: siblingDomains(hostNames, host, config.maxSiblingDomains),
        has_wildcard: hostNames.some((n) => n.startsWith('*.')),
        new_footprint: !footprint.siteLookupFailed && isNewFootprint(ages, config),
      };
      const findings: Finding[] = [];
      if (summary.new_footprint) findings.push(footprintFinding(summary, footprint.scope));
      if (isFreshlyIssued(ages, config)) findings.push(freshFinding(ages, footprint.scope));
      return {
        findings,
        data: {
          'ssl.data.ct': summary,
          'ssl.data.ct_evidence': summaryLines(summary, footprint.scope, footprint.siteLookupFailed),
        },
      };
    },
  }),
});

export default detector;

/** Its one line in plugins/index.ts: the detector, the weights shipped beside it and any role it fills. */
export const plugin: PluginModule = { detector, weights };
