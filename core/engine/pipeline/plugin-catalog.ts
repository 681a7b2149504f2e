import type { DetectorDefinition, FlagMeta, Surface } from '../../detector.ts';

/**
 * What a plugin's output means to core beyond flags and `detailed_results` paths, declared in its `plugin` export so
 * core never looks a plugin up by id (Backstage-style extension points: core names the role, a plugin fills it).
 */
export interface PluginProvides {
  /**
   * Its `data` is the agent screen `{ severity, findings: AgentScreenFinding[] }` that every agent surface reports
   * (severity, `prompt_injection`, `injection_detected`). At most one plugin provides it.
   */
  agentScreen?: boolean;
  /**
   * Its findings join a scan only when the workspace turns this feature on; otherwise they are reported in shadow
   * mode (`campaign_tagging.autonomous_tags`), and a skipped run marks the feature degraded. At most one plugin
   * per feature.
   */
  featureFlag?: 'campaign_tagging';
  /**
   * It judges the MCP tool definition a tool call carries (`ctx.tool`): on the tool-call surface its flags' points
   * are a part of `risk_score` of their own, next to the agent screen's and the tool policy's.
   */
  toolDefinition?: boolean;
  /** `detailed_results.<path>.flags` and `.score`: this plugin's fired flags and their weights' sum, added by core. */
  scoredResult?: string;
}

/**
 * One entry of plugins/index.ts, exported by the plugin's own index.ts as `plugin`: the detector, the default weights
 * shipped in its folder, and any role it fills.
 */
export interface PluginModule {
  // biome-ignore lint/suspicious/noExplicitAny: deps and config differ per plugin; the registry only reads meta.
  detector: DetectorDefinition<any, any>;
  weights: Readonly<Record<string, number>>;
  provides?: PluginProvides;
}

export interface DeclaredFlag extends FlagMeta {
  flag: string;
  pluginId: string;
}

/** Everything the rest of the system may know about plugins without running them. */
export class PluginCatalog {
  readonly flags: ReadonlyMap<string, DeclaredFlag>;

  constructor(readonly modules: readonly PluginModule[]) {
    const flags = new Map<string, DeclaredFlag>();
    const ids = new Set<string>();
    const roles = new Map<string, string>();
    for (const { detector, provides } of modules) {
      const { id } = detector.meta;
      if (ids.has(id)) throw new Error(`plugin id ${id} is registered twice`);
      ids.add(id);
      const claimed = [
        ...(provides?.agentScreen ? ['agentScreen'] : []),
        ...(provides?.featureFlag ? [`featureFlag:${provides.featureFlag}`] : []),
      ];
      for (const role of claimed) {
        const holder = roles.get(role);
        if (holder) throw new Error(`${role} is provided by both ${holder} and ${id}`);
        roles.set(role, id);
      }
      for (const [flag, meta] of Object.entries(detector.meta.flags)) {
        const owner = flags.get(flag);
        if (owner) throw new Error(`flag ${flag} is declared by both ${owner.pluginId} and ${id}`);
        flags.set(flag, { ...meta, flag, pluginId: id });
      }
    }
    this.flags = flags;
  }

  forSurface(surface: Surface): PluginModule[] {
    return this.modules.filter((m) => m.detector.meta.surfaces.includes(surface));
  }

  /** The declared flag an emitted flag belongs to: itself, or the parametrised prefix it extends. */
  declarationOf(flag: string): DeclaredFlag | undefined {
    const exact = this.flags.get(flag);
    if (exact) return exact;
    for (const declared of this.flags.values()) {
      if (declared.parametrised && flag.startsWith(declared.flag)) return declared;
    }
    return undefined;
  }

  /** The plugin that declared an emitted flag (composites included), if any. */
  ownerOf(flag: string): string | undefined {
    return this.declarationOf(flag)?.pluginId;
  }

  /** The roles of the plugin that declared an emitted flag (`{}` for none), so core sorts flags by role, not name. */
  rolesOf(flag: string): PluginProvides {
    const owner = this.ownerOf(flag);
    return this.modules.find((m) => m.detector.meta.id === owner)?.provides ?? {};
  }

  /** The ids of the plugins whose findings wait for a workspace feature flag. */
  gatedBy(feature: NonNullable<PluginProvides['featureFlag']>): ReadonlySet<string> {
    return new Set(this.modules.filter((m) => m.provides?.featureFlag === feature).map((m) => m.detector.meta.id));
  }

  defaultWeights(): Record<string, number> {
    const weights: Record<string, number> = {};
    for (const m of this.modules) Object.assign(weights, m.weights);
    return weights;
  }
}
