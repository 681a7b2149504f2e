import type { Lookup, PluginModule } from '../../core/plugin-api.ts';
import {
  type DetectionContext,
  defineDetector,
  type Finding,
  type HistoryCapture,
  HistoryClient,
} from '../../core/plugin-api.ts';
import { DEFAULT_HISTORY_CONFIG, HISTORY_CONFIG_SCHEMA, type HistoryConfig } from './config.ts';
import {
  type DomainHistory,
  historyLines,
  isRecentFirstSeen,
  recentFirstSeenFinding,
  summariseHistory,
  thinFinding,
} from './public-footprint.ts';
import weights from './weights.json' with { type: 'json' };

interface Presence {
  history: DomainHistory;
  scope: string[];
  /** Set when the registered site had to be looked up and the lookup failed. */
  siteLookupFailed?: string;
}

/**
 * A new subdomain of an old site has no archive history of its own; the site's history is the one that says
 * whether the owner has a public past. Looked up only when the host alone would raise a flag.
 */
async function presenceOf(
  ctx: DetectionContext,
  hostCaptures: readonly HistoryCapture[],
  lookup: (domain: string) => Promise<Lookup<HistoryCapture[]>>,
  config: HistoryConfig,
): Promise<Presence> {
  const target = ctx.evidence!.target;
  const hostHistory = summariseHistory(hostCaptures, config);
  const hostOnly: Presence = { history: hostHistory, scope: [target.host] };
  const wouldFire = hostHistory.thin_public_footprint || isRecentFirstSeen(hostHistory, config);
  if (target.isIp || target.site === target.host || !wouldFire) return hostOnly;
  const site = await lookup(target.site);
  if (!site.ok) return { ...hostOnly, siteLookupFailed: site.reason };
  return { history: summariseHistory([...hostCaptures, ...site.value], config), scope: [target.host, target.site] };
}

const detector = defineDetector<{ history: HistoryClient }, HistoryConfig>({
  meta: {
    id: 'history',
    version: '1.0.0',
    description:
      'Public-web history of the host (and of its registered site) from the web archive: whether it has any, how much, and since when.',
    surfaces: ['scan'],
    flags: {
      'history:thin_public_footprint': {
        description: 'Little or no public-web presence. Modest weight; stacks with WHOIS age signals.',
      },
      'history:recent_first_seen': {
        description: 'Earliest archived capture is recent. Evidence only; no weight.',
        evidenceOnly: true,
      },
    },
    configSchema: HISTORY_CONFIG_SCHEMA,
    defaultConfig: DEFAULT_HISTORY_CONFIG,
    bestEffort: true,
    timeoutMs: 4_000,
  },
  deps: { history: HistoryClient },
  create: ({ deps, config }) => ({
    async detect(ctx) {
      const evidence = ctx.evidence;
      if (!evidence?.history.ok) return { findings: [] };
      const lookup = (domain: string) =>
        deps.history.captures(domain, { signal: ctx.signal, timeoutMs: config.siteLookupTimeoutMs });
      const presence = await presenceOf(ctx, evidence.history.value, lookup, config);
      // A failed site lookup leaves the host's own view unconfirmed: report it, raise nothing on it.
      const history: DomainHistory = presence.siteLookupFailed
        ? { ...presence.history, thin_public_footprint: false }
        : presence.history;
      const findings: Finding[] = [];
      if (history.thin_public_footprint) findings.push(thinFinding(history, presence.scope));
      if (!presence.siteLookupFailed && isRecentFirstSeen(history, config)) {
        findings.push(recentFirstSeenFinding(history, presence.scope));
      }
      return {
        findings,
        data: {
          'whois.data.domain_history': history,
          'whois.data.domain_history_evidence': historyLines(history, presence.scope, presence.siteLookupFailed),
        },
      };
    },
  }),
});

export default detector;

/** Its one line in plugins/index.ts: the detector, the weights shipped beside it and any role it fills. */
export const plugin: PluginModule = { detector, weights };
