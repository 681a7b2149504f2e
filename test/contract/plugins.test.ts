// The plugin contract (DESIGN §2), enforced over every plugin in plugins/index.ts.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pluginCatalog } from '../../app/index.ts';
import { ROOT_DIR } from '../../core/config.ts';
import type { DetectionContext, Surface } from '../../core/detector.ts';
import { DetectorSet } from '../../core/engine/pipeline/run-detectors.ts';
import { InjectionRules } from '../../core/engine/rules/injection-rules.ts';
import { loadRuleset, Ruleset } from '../../core/engine/rules/ruleset.ts';
import { BrandCatalog, HostingCatalog } from '../../core/engine/url/catalogs.ts';
import { parseTarget } from '../../core/engine/url/target.ts';
import { createKnex } from '../../core/platform/db/database.ts';
import { Knex } from '../../core/platform/db/knex-token.ts';
import { detectScan } from '../../core/services/scan/detect-scan.ts';
import { ScanHistory } from '../../core/services/scan/evidence.ts';
import { type FingerprintKind, PostgresScanHistory } from '../../core/services/scan/scan-history.ts';
import { PLUGINS } from '../../plugins/index.ts';
import { createTestDatabase } from '../support/database.ts';
import { type ScanLab, startScanLab } from '../support/scan-lab.ts';

interface FixtureCase {
  name: string;
  /**
   * Agent surfaces: the context itself (`url` is parsed into `target` as the checks do). Scan surface: `site`, a
   * host served by the lab (a `plugins/<id>/fixtures/sites/<host>/` folder or a shared eval site), optionally
   * `path`; the real evidence collector gathers what a scan would see, and the real scan pipeline runs.
   */
  input: Omit<DetectionContext, 'signal' | 'surface' | 'target' | 'evidence'> & {
    surface?: Surface;
    site?: string;
    path?: string;
  };
  /** Earlier flagged scans sharing one of this site's fingerprints (seeded into the scan history first). */
  history?: { host: string; fingerprint: FingerprintKind; risk_level?: string; flags?: string[] }[];
}

function contextOf(input: FixtureCase['input']) {
  return { ...input, target: input.url ? parseTarget(input.url) : undefined };
}
interface Fixtures {
  invalid: (FixtureCase & { fires: string[] })[];
  valid: (FixtureCase & { silent: string[] })[];
}

/** The spec's flag table, copied into the repo so the contract holds without the shared spec folder. */
const SPEC_FLAGS_FILE = path.join(ROOT_DIR, 'rules', 'spec-flags.json');
const specFlags: { flags: Record<string, { parametrised: boolean; evidence_only: boolean }> } = JSON.parse(
  readFileSync(SPEC_FLAGS_FILE, 'utf8'),
);
/** The shared spec's own copy, when this checkout sits beside it: the in-repo copy must not drift from it. */
const SHARED_SPEC_FLAGS = path.join(ROOT_DIR, '..', 'shared', 'spec', 'flags.json');

describe('plugin contract', () => {
  const catalog = pluginCatalog();
  const ruleset = loadRuleset(path.join(ROOT_DIR, 'rules'), catalog);
  // Plugins resolve their deps from an app-like container: the shipped catalogs, the lab-wired source clients,
  // and a real scan history on a fresh database.
  let scanLab: ScanLab;
  let detectors: DetectorSet;
  let history: PostgresScanHistory;
  let knex: ReturnType<typeof createKnex>;
  let dropDatabase: () => Promise<void>;
  before(async () => {
    scanLab = await startScanLab();
    const db = await createTestDatabase();
    dropDatabase = db.drop;
    knex = createKnex(db.url, 2);
    await knex.migrate.latest();
    const scope = scanLab.container;
    scope.registerInstance(Knex, knex);
    scope.registerInstance(Ruleset, ruleset);
    scope.registerInstance(BrandCatalog, new BrandCatalog(ruleset.brands));
    scope.registerInstance(HostingCatalog, new HostingCatalog(ruleset.hosting));
    scope.registerInstance(InjectionRules, ruleset.injection);
    history = scope.resolve(PostgresScanHistory);
    scope.registerInstance(ScanHistory, history);
    detectors = new DetectorSet(catalog, scope);
  });
  after(async () => {
    await scanLab.close();
    await knex.destroy();
    await dropDatabase();
  });

  /** The flags a fixture case raises on its surface, through the same pipeline the product uses. */
  async function firedBy(c: FixtureCase, surface: Surface): Promise<string[]> {
    const on = c.input.surface ?? surface;
    if (on !== 'scan') {
      const runs = await detectors.run(on, contextOf(c.input));
      return runs.flatMap((r) => r.output?.findings.map((f) => f.flag) ?? []);
    }
    assert.ok(c.input.site, `${c.name}: a scan fixture names its lab site`);
    const evidence = await scanLab.collect(`https://${c.input.site}${c.input.path ?? '/'}`);
    for (const h of c.history ?? []) {
      const value = fingerprintOf(evidence, h.fingerprint);
      assert.ok(value, `${c.name}: the site has no ${h.fingerprint} to share`);
      await history.record(
        { host: h.host, risk_level: h.risk_level ?? 'high', flags: h.flags ?? [] },
        { [h.fingerprint]: value },
      );
    }
    const { findings } = await detectScan(detectors, ruleset.composites, evidence);
    return findings.map((f) => f.flag);
  }

  it('rules/spec-flags.json is the spec flag table (when the shared spec is beside the checkout)', (t) => {
    if (!existsSync(SHARED_SPEC_FLAGS)) return t.skip('no ../shared/spec/flags.json beside this checkout');
    assert.deepEqual(specFlags, JSON.parse(readFileSync(SHARED_SPEC_FLAGS, 'utf8')));
  });

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

      it('declares only flags the spec names, spelled and marked as the spec does (or marked as our own)', () => {
        for (const [flag, flagMeta] of Object.entries(meta.flags)) {
          const specKey = flagMeta.parametrised ? `${flag}<brand>` : flag;
          if (flagMeta.extension) {
            // Our own flags may never shadow a spec flag, and keep a category prefix like every spec flag.
            assert.equal(specFlags.flags[specKey], undefined, `${flag} is a spec flag; do not mark it extension`);
            assert.match(flag, /^[a-z_]+:[a-z0-9_.]+$/, `${flag}: category prefix and snake_case name`);
            continue;
          }
          const spec = specFlags.flags[specKey];
          assert.ok(spec, `${flag} is not in rules/spec-flags.json`);
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
          const fired = await firedBy(c, surface);
          for (const flag of c.fires) {
            const hit = fired.includes(flag) || fired.some((f) => meta.flags[flag]?.parametrised && f.startsWith(flag));
            assert.ok(hit, `${flag} did not fire; got ${fired.join(', ')}`);
          }
        });
      }
      for (const c of fixtures.valid) {
        it(`stays silent on ${c.silent.join(', ')}: ${c.name}`, async () => {
          const fired = await firedBy(c, surface);
          for (const flag of c.silent) {
            const hit = fired.includes(flag) || fired.some((f) => meta.flags[flag]?.parametrised && f.startsWith(flag));
            assert.ok(!hit, `${flag} fired on a near miss`);
          }
        });
      }
    });
  }
});

function fingerprintOf(evidence: Awaited<ReturnType<ScanLab['collect']>>, kind: FingerprintKind): string | undefined {
  if (kind === 'cert_sha256') return evidence.tls.ok ? evidence.tls.value.fingerprint_sha256 : undefined;
  if (kind === 'favicon_hash') return evidence.page.favicon ? String(evidence.page.favicon.hash) : undefined;
  return evidence.addresses[0];
}
