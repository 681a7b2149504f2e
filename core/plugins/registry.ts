import type { DetectorDefinition, FlagMeta, Surface } from '../detector.ts';

/** One entry of plugins/index.ts: the detector and the default weights shipped in its folder. */
export interface PluginModule {
  // biome-ignore lint/suspicious/noExplicitAny: deps and config differ per plugin; the registry only reads meta.
  detector: DetectorDefinition<any, any>;
  weights: Readonly<Record<string, number>>;
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
    for (const { detector } of modules) {
      const { id } = detector.meta;
      if (ids.has(id)) throw new Error(`plugin id ${id} is registered twice`);
      ids.add(id);
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

  defaultWeights(): Record<string, number> {
    const weights: Record<string, number> = {};
    for (const m of this.modules) Object.assign(weights, m.weights);
    return weights;
  }
}
