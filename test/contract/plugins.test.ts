// The plugin contract (DESIGN §2), enforced over every plugin in plugins/index.ts.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { container } from 'tsyringe';
import { pluginCatalog } from '../../core/app.ts';
import { ROOT_DIR } from '../../core/config.ts';
import type { DetectionContext, Surface } from '../../core/detector.ts';
import { DetectorSet } from '../../core/pipeline/run-detectors.ts';
import { loadRuleset } from '../../core/rules/ruleset.ts';
import { BrandCatalog, HostingCatalog } from '../../core/url/catalogs.ts';
import { parseTarget } from '../../core/url/target.ts';
import { PLUGINS } from '../../plugins/index.ts';

interface FixtureCase {
  name: string;
  /** `url` is parsed into `target` as the checks do. */
  input: Omit<DetectionContext, 'signal' | 'surface' | 'target'> & { surface?: Surface };
}

function contextOf(input: FixtureCase['input']) {
  return { ...input, target: input.url ? parseTarget(input.url) : undefined };
}
interface Fixtures {
  invalid: (FixtureCase & { fires: string[] })[];
  valid: (FixtureCase & { silent: string[] })[];
}

const specFlags: { flags: Record<string, { parametrised: boolean; evidence_only: boolean }> } = JSON.parse(
  readFileSync(path.join(ROOT_DIR, '..', 'shared', 'spec', 'flags.json'), 'utf8'),
);

describe('plugin contract', () => {
  const catalog = pluginCatalog();
  // Plugins resolve their deps from an app-like container holding the shipped catalogs.
  const ruleset = loadRuleset(path.join(ROOT_DIR, 'rules'), catalog);
  const scope = container.createChildContainer();
  scope.registerInstance(BrandCatalog, new BrandCatalog(ruleset.brands));
  scope.registerInstance(HostingCatalog, new HostingCatalog(ruleset.hosting));
  const detectors = new DetectorSet(catalog, scope);

  it('the plugin index is sorted by id', () => {
    const ids = PLUGINS.map((p) => p.detector.meta.id);
    assert.deepEqual(ids, [...ids].sort());
  });

  for (const { detector, weights } of PLUGINS) {
    const { meta } = detector;
    const dir = path.join(ROOT_DIR, 'plugins', meta.id);
    describe(meta.id, () => {
      it('has a folder with index.ts, weights.json, README.md and fixtures.json', () => {
        for (const f of ['index.ts', 'weights.json', 'README.md', 'fixtures.json']) {
          assert.ok(existsSync(path.join(dir, f)), `${meta.id}/${f} is missing`);
        }
      });

      it('gives every declared flag an explicit weight, and weighs nothing else', () => {
        assert.deepEqual(Object.keys(weights).sort(), Object.keys(meta.flags).sort());
        for (const [flag, flagMeta] of Object.entries(meta.flags)) {
          if (flagMeta.evidenceOnly) assert.equal(weights[flag], 0, `${flag} is evidence-only and must weigh 0`);
        }
      });

      it('declares only flags the spec names, spelled and marked as the spec does', () => {
        for (const [flag, flagMeta] of Object.entries(meta.flags)) {
          const spec = specFlags.flags[flagMeta.parametrised ? `${flag}<brand>` : flag];
          assert.ok(spec, `${flag} is not in spec/flags.json`);
          assert.equal(Boolean(flagMeta.evidenceOnly), spec.evidence_only, `${flag}: evidence-only marking`);
        }
      });

      it('documents every flag in its README', () => {
        const readme = readFileSync(path.join(dir, 'README.md'), 'utf8');
        for (const flag of Object.keys(meta.flags)) {
          assert.match(readme, new RegExp(`^##+ .*${flag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm'), flag);
        }
      });

      const fixtures: Fixtures = JSON.parse(readFileSync(path.join(dir, 'fixtures.json'), 'utf8'));

      it('has, for every flag, a fixture that fires it and a near miss that does not', () => {
        for (const flag of Object.keys(meta.flags)) {
          assert.ok(
            fixtures.invalid.some((c) => c.fires.includes(flag)),
            `no fixture fires ${flag}`,
          );
          assert.ok(
            fixtures.valid.some((c) => c.silent.includes(flag)),
            `no near miss for ${flag}`,
          );
        }
      });

      const surface = meta.surfaces[0]!;
      for (const c of fixtures.invalid) {
        it(`fires ${c.fires.join(', ')}: ${c.name}`, async () => {
          const runs = await detectors.run(c.input.surface ?? surface, contextOf(c.input));
          const fired = runs.flatMap((r) => r.output?.findings.map((f) => f.flag) ?? []);
          for (const flag of c.fires) assert.ok(fired.includes(flag), `${flag} did not fire; got ${fired.join(', ')}`);
        });
      }
      for (const c of fixtures.valid) {
        it(`stays silent on ${c.silent.join(', ')}: ${c.name}`, async () => {
          const runs = await detectors.run(c.input.surface ?? surface, contextOf(c.input));
          const fired = runs.flatMap((r) => r.output?.findings.map((f) => f.flag) ?? []);
          for (const flag of c.silent) assert.ok(!fired.includes(flag), `${flag} fired on a near miss`);
        });
      }
    });
  }
});
