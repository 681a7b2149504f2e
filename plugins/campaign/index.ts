import {
  BrandCatalog,
  defineDetector,
  type Finding,
  HostingCatalog,
  type PluginModule,
  ScanHistory,
} from '../../core/plugin-api.ts';
import { clusterableFingerprints } from '../_shared/fingerprints.ts';
import { type Cluster, clusterOf } from './cluster.ts';
import { CAMPAIGN_CONFIG_SCHEMA, type CampaignConfig, DEFAULT_CAMPAIGN_CONFIG } from './config.ts';
import weights from './weights.json' with { type: 'json' };

interface Deps {
  history: ScanHistory;
  brands: BrandCatalog;
  hosting: HostingCatalog;
}

const KIND_WORDING: Record<string, string> = { ip: 'address', cert_sha256: 'certificate', favicon_hash: 'favicon' };

function sharedLine(cluster: Cluster): string {
  return cluster.shared.map((s) => `${KIND_WORDING[s.kind]} ${s.value} with ${s.hosts.join(', ')}`).join('; ');
}

function findings(cluster: Cluster, config: CampaignConfig): Finding[] {
  const out: Finding[] = [];
  if (cluster.related_hosts.length > 0) {
    out.push({
      flag: 'campaign:autonomous.related',
      detail: `Shares infrastructure with ${cluster.related_hosts.length} host(s) flagged before: ${sharedLine(cluster)}.`,
      evidence: { related_hosts: cluster.related_hosts },
    });
  }
  if (cluster.active_hosts.length > 0) {
    out.push({
      flag: 'campaign:autonomous.active',
      detail: `${cluster.active_hosts.length} hosts flagged in the last ${config.activeWindowDays} days run on the same infrastructure: ${cluster.active_hosts.join(', ')}.`,
      evidence: { active_hosts: cluster.active_hosts },
    });
  }
  return out;
}

const detector = defineDetector<Deps, CampaignConfig>({
  meta: {
    id: 'campaign',
    version: '1.0.0',
    description:
      'Autonomous campaign tagging from our own scan history: hosts sharing an address, certificate or favicon with earlier flagged hosts, and infrastructure busy with several of them at once. Reports only; the scan service decides (workspace feature flag) whether the flags are scored or kept in shadow mode.',
    surfaces: ['scan'],
    flags: {
      'campaign:autonomous.related': {
        description: 'Shares an address (recently), certificate or favicon with hosts flagged before.',
      },
      'campaign:autonomous.active': {
        description: 'Several hosts flagged within a short window run on the same address, certificate or favicon.',
      },
    },
    configSchema: CAMPAIGN_CONFIG_SCHEMA,
    defaultConfig: DEFAULT_CAMPAIGN_CONFIG,
    bestEffort: true,
    timeoutMs: 2_000,
  },
  deps: { history: ScanHistory, brands: BrandCatalog, hosting: HostingCatalog },
  create: ({ deps, config }) => ({
    async detect(ctx) {
      const evidence = ctx.evidence;
      if (!evidence) return { findings: [] };
      const selection = clusterableFingerprints(evidence, deps, {
        withIp: true,
        sharedIpProviders: config.sharedIpProviders,
      });
      // A history failure throws: best-effort turns it into "no findings, no fields", never a half answer.
      const cluster = await clusterOf(evidence, selection.fingerprints, deps.history, config);
      return {
        findings: findings(cluster, config),
        data: {
          'campaign.data': {
            related_hosts: cluster.related_hosts,
            active_hosts: cluster.active_hosts,
            shared: cluster.shared,
            not_clustered: selection.skipped,
          },
        },
      };
    },
  }),
});

export default detector;

/** Its one line in plugins/index.ts: the detector, the weights shipped beside it and any role it fills. */
export const plugin: PluginModule = { detector, weights, provides: { featureFlag: 'campaign_tagging' } };
