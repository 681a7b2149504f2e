import type { DependencyContainer } from 'tsyringe';
import type { DetectionContext, Detector, DetectorOutput, Finding, Surface } from '../detector.ts';
import type { PluginCatalog, PluginModule } from '../plugins/registry.ts';

export class ContractViolation extends Error {}

export interface DetectorRun {
  pluginId: string;
  output?: DetectorOutput;
  /** Set when a best-effort detector failed or ran out of time: it contributes nothing. */
  skipped?: { reason: string };
  durationMs: number;
}

const DEFAULT_TIMEOUT_MS = 5_000;

/** Instantiates every plugin once per app, resolving its declared deps from the app's own container. */
export class DetectorSet {
  private readonly instances = new Map<string, Detector>();

  constructor(
    private readonly catalog: PluginCatalog,
    container: DependencyContainer,
    configs: Readonly<Record<string, unknown>> = {},
  ) {
    for (const { detector } of catalog.modules) {
      const deps: Record<string, unknown> = {};
      for (const [name, token] of Object.entries(detector.deps ?? {})) deps[name] = container.resolve(token as never);
      const config = { ...(detector.meta.defaultConfig as object), ...(configs[detector.meta.id] as object) };
      this.instances.set(detector.meta.id, detector.create({ deps, config }));
    }
  }

  /** Runs the surface's detectors in parallel, each under its own budget. */
  async run(surface: Surface, ctx: Omit<DetectionContext, 'surface' | 'signal'>): Promise<DetectorRun[]> {
    return Promise.all(this.catalog.forSurface(surface).map((m) => this.runOne(m, { ...ctx, surface })));
  }

  private async runOne(module: PluginModule, ctx: Omit<DetectionContext, 'signal'>): Promise<DetectorRun> {
    const { meta } = module.detector;
    const instance = this.instances.get(meta.id)!;
    const budget = meta.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const controller = new AbortController();
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      const output = await Promise.race([
        Promise.resolve().then(() => instance.detect({ ...ctx, signal: controller.signal })),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            controller.abort();
            reject(new Error(`${meta.id} exceeded its ${budget} ms budget`));
          }, budget);
        }),
      ]);
      this.assertDeclared(meta.id, output.findings);
      return { pluginId: meta.id, output, durationMs: performance.now() - started };
    } catch (err) {
      if (!meta.bestEffort || err instanceof ContractViolation) throw err;
      return {
        pluginId: meta.id,
        skipped: { reason: (err as Error).message },
        durationMs: performance.now() - started,
      };
    } finally {
      clearTimeout(timer);
    }
  }

  private assertDeclared(pluginId: string, findings: Finding[]): void {
    for (const f of findings) {
      const declared = this.catalog.declarationOf(f.flag);
      if (!declared || declared.pluginId !== pluginId) {
        throw new ContractViolation(`${pluginId} emitted undeclared flag ${f.flag}`);
      }
      if (declared.composite) {
        throw new ContractViolation(`${pluginId} emitted ${f.flag}, which only rules/composites.json may raise`);
      }
    }
  }
}
