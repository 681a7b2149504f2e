import type { DependencyContainer } from 'tsyringe';
import type { DetectionContext, Detector, DetectorOutput, Finding, Surface } from '../../detector.ts';
import { OutputMemo } from './output-memo.ts';
import type { PluginCatalog, PluginModule, PluginProvides } from './plugin-catalog.ts';

export class ContractViolation extends Error {}

export interface DetectorRun {
  pluginId: string;
  /** The roles the plugin's index entry declares (how core reads this run without knowing the plugin by id). */
  provides?: PluginProvides;
  output?: DetectorOutput;
  /** Set when a best-effort detector failed or ran out of time: it contributes nothing. */
  skipped?: { reason: string };
  durationMs: number;
  /** The output of an earlier run on the same input (a deterministic detector, core/engine/pipeline/output-memo.ts). */
  memoised?: true;
}

const DEFAULT_TIMEOUT_MS = 5_000;

function isPromiseLike<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** Instantiates every plugin once per app, resolving its declared deps from the app's own container. */
export class DetectorSet {
  private readonly instances = new Map<string, Detector>();
  private readonly provides = new Map<string, PluginProvides>();
  /** `${surface} ${pluginId}` → that detector's output memo, for the surfaces it is deterministic on. */
  private readonly memos = new Map<string, OutputMemo>();
  /** Told of every finished or skipped run (metrics); must not throw. */
  readonly observers: ((run: DetectorRun) => void)[] = [];

  constructor(
    private readonly catalog: PluginCatalog,
    container: DependencyContainer,
    configs: Readonly<Record<string, unknown>> = {},
  ) {
    for (const { detector, provides } of catalog.modules) {
      if (provides) this.provides.set(detector.meta.id, provides);
      const deps: Record<string, unknown> = {};
      for (const [name, token] of Object.entries(detector.deps ?? {})) deps[name] = container.resolve(token as never);
      const config = { ...(detector.meta.defaultConfig as object), ...(configs[detector.meta.id] as object) };
      this.instances.set(detector.meta.id, detector.create({ deps, config }));
      for (const surface of detector.meta.deterministicOn ?? []) {
        this.memos.set(`${surface} ${detector.meta.id}`, new OutputMemo());
      }
    }
  }

  /** The output memo of a detector on a surface, if it is deterministic there (tests read it). */
  memoOf(surface: Surface, pluginId: string): OutputMemo | undefined {
    return this.memos.get(`${surface} ${pluginId}`);
  }

  /** Runs the surface's detectors in parallel, each under its own budget. */
  async run(surface: Surface, ctx: Omit<DetectionContext, 'surface' | 'signal'>): Promise<DetectorRun[]> {
    const full = { ...ctx, surface };
    let key: string | undefined | null = null; // computed once, on the first detector that has a memo
    const runs = this.catalog.forSurface(surface).map((m) => {
      const memo = this.memos.get(`${surface} ${m.detector.meta.id}`);
      if (!memo) return this.runOne(m, full);
      if (key === null) key = OutputMemo.keyOf(full);
      return key === undefined ? this.runOne(m, full) : this.memoised(m, full, memo, key);
    });
    return runs.some(isPromiseLike) ? Promise.all(runs) : (runs as DetectorRun[]);
  }

  /** A deterministic detector: the kept output for this input, else a run whose finished output is kept. */
  private memoised(
    module: PluginModule,
    ctx: Omit<DetectionContext, 'signal'>,
    memo: OutputMemo,
    key: string,
  ): DetectorRun | Promise<DetectorRun> {
    const { meta } = module.detector;
    const output = memo.get(key);
    if (output) return this.observed({ pluginId: meta.id, output, durationMs: 0, memoised: true });
    const keep = (run: DetectorRun) => {
      if (run.output && !run.skipped) memo.put(key, run.output);
      return run;
    };
    const run = this.runOne(module, ctx);
    return isPromiseLike(run) ? run.then(keep) : keep(run);
  }

  private runOne(module: PluginModule, ctx: Omit<DetectionContext, 'signal'>): DetectorRun | Promise<DetectorRun> {
    const { meta } = module.detector;
    const instance = this.instances.get(meta.id)!;
    const controller = new AbortController();
    const started = performance.now();
    let result: Promise<DetectorOutput> | DetectorOutput;
    try {
      result = instance.detect({ ...ctx, signal: controller.signal });
    } catch (err) {
      return this.failed(meta, err, started);
    }
    // A synchronous detector (the injection screen, the URL detectors) has already finished: no timer, no race.
    if (!isPromiseLike(result)) return this.finished(meta, result, started);
    return this.raced(meta, result, controller, started);
  }

  private async raced(
    meta: PluginModule['detector']['meta'],
    pending: Promise<DetectorOutput>,
    controller: AbortController,
    started: number,
  ): Promise<DetectorRun> {
    const budget = meta.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    try {
      const output = await Promise.race([
        pending,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            controller.abort();
            reject(new Error(`${meta.id} exceeded its ${budget} ms budget`));
          }, budget);
        }),
      ]);
      return this.finished(meta, output, started);
    } catch (err) {
      return this.failed(meta, err, started);
    } finally {
      clearTimeout(timer);
    }
  }

  private finished(meta: PluginModule['detector']['meta'], output: DetectorOutput, started: number): DetectorRun {
    this.assertDeclared(meta.id, output.findings);
    return this.observed({ pluginId: meta.id, output, durationMs: performance.now() - started });
  }

  /** A best-effort detector's failure is skipped; any other failure (and every contract violation) propagates. */
  private failed(meta: PluginModule['detector']['meta'], err: unknown, started: number): DetectorRun {
    if (!meta.bestEffort || err instanceof ContractViolation) throw err;
    const reason = (err as Error).message;
    return this.observed({ pluginId: meta.id, skipped: { reason }, durationMs: performance.now() - started });
  }

  private observed(done: DetectorRun): DetectorRun {
    const provides = this.provides.get(done.pluginId);
    const run = provides ? { ...done, provides } : done;
    for (const observe of this.observers) observe(run);
    return run;
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
