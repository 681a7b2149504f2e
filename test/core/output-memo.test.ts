// Deterministic detectors' outputs reused per input (core/engine/pipeline/output-memo.ts): a reused output is the one a
// fresh run gives, over every agent-surface fixture of every plugin and generated variants of them.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createPreflight, type Preflight } from '../../app/index.ts';
import { loadConfig, ROOT_DIR } from '../../core/config.ts';
import type { DetectionContext } from '../../core/detector.ts';
import { OUTPUT_MEMO_MAX_INPUT } from '../../core/engine/pipeline/output-memo.ts';
import { PluginCatalog } from '../../core/engine/pipeline/plugin-catalog.ts';
import { type DetectorRun, DetectorSet } from '../../core/engine/pipeline/run-detectors.ts';
import { Ruleset } from '../../core/engine/rules/ruleset.ts';
import { parseTarget } from '../../core/engine/url/target.ts';
import { PLUGINS } from '../../plugins/index.ts';
import { createTestDatabase } from '../support/database.ts';

type Input = Pick<DetectionContext, 'url' | 'texts'>;

/** Every agent_action fixture input of every plugin (URL and page text), deduplicated. */
function fixtureInputs(): Input[] {
  const seen = new Map<string, Input>();
  for (const dir of readdirSync(path.join(ROOT_DIR, 'plugins'))) {
    let fixtures: { invalid: { input: Record<string, unknown> }[]; valid: { input: Record<string, unknown> }[] };
    try {
      fixtures = JSON.parse(readFileSync(path.join(ROOT_DIR, 'plugins', dir, 'fixtures.json'), 'utf8'));
    } catch {
      continue;
    }
    for (const { input } of [...fixtures.invalid, ...fixtures.valid]) {
      if (typeof input.url !== 'string' || (input.surface !== undefined && input.surface !== 'agent_action')) continue;
      const texts = input.texts as Record<string, string> | undefined;
      seen.set(JSON.stringify([input.url, texts]), { url: input.url, ...(texts ? { texts } : {}) });
    }
  }
  return [...seen.values()];
}

/** Variants no fixture has: other paths and queries, hosts moved under other registrable domains, page text. */
function variants(inputs: Input[]): Input[] {
  const out: Input[] = [];
  inputs.forEach((input, i) => {
    const url = new URL(input.url!);
    const other = new URL(inputs[(i * 7 + 3) % inputs.length]!.url!);
    out.push({ url: `${url.origin}/account/verify?session=${i}` });
    out.push({ url: `https://${url.hostname.split('.')[0]}.${other.hostname}${url.pathname}` });
    out.push({ url: `${other.origin}${url.pathname}${url.search}` });
    out.push({
      url: input.url!,
      texts: { page_text: `Sign in to continue to ${other.hostname}. Enter your password.` },
    });
  });
  // Only destinations the checks would accept (a label moved under an IP is not one).
  return out.filter((v) => {
    try {
      parseTarget(v.url!);
      return true;
    } catch {
      return false;
    }
  });
}

const plain = (runs: DetectorRun[]) =>
  runs.map((r) => ({ pluginId: r.pluginId, output: r.output, skipped: r.skipped }));

describe('deterministic detector outputs reused per input', () => {
  let app: Preflight;
  let drop: () => Promise<void>;
  before(async () => {
    const db = await createTestDatabase();
    drop = db.drop;
    app = await createPreflight({ ...loadConfig({ NODE_ENV: 'test' }), databaseUrl: db.url });
  });
  after(async () => {
    await app.close();
    await drop();
  });

  it('declares determinism only on surfaces a plugin runs on, and some agent_action detectors are memoised', () => {
    for (const { detector } of PLUGINS) {
      for (const s of detector.meta.deterministicOn ?? []) assert.ok(detector.meta.surfaces.includes(s));
    }
    const detectors = app.container.resolve(DetectorSet);
    assert.ok(PLUGINS.some(({ detector: d }) => detectors.memoOf('agent_action', d.meta.id)));
  });

  it('a reused output equals the fresh run on the same input, over every fixture and generated variants', async () => {
    // A DetectorSet of its own, so every first run here is a fresh run.
    const detectors = new DetectorSet(
      app.container.resolve(PluginCatalog),
      app.container,
      app.container.resolve(Ruleset).detectors,
    );
    const base = fixtureInputs();
    assert.ok(base.length > 100, `fixture inputs: ${base.length}`);
    const inputs = [...base, ...variants(base)];
    const ctx = (i: Input) => ({ ...i, target: parseTarget(i.url!) });
    const fresh = [];
    for (const input of inputs) fresh.push(plain(await detectors.run('agent_action', ctx(input))));
    // Second pass in reverse order: every deterministic detector answers from memory, with the fresh output.
    for (let i = inputs.length - 1; i >= 0; i--) {
      const again = await detectors.run('agent_action', ctx(inputs[i]!));
      assert.deepEqual(plain(again), fresh[i], inputs[i]!.url);
      for (const run of again) {
        const memoised = detectors.memoOf('agent_action', run.pluginId) !== undefined && !run.skipped;
        assert.equal(run.memoised === true, memoised, `${run.pluginId} on ${inputs[i]!.url}`);
      }
    }
  });

  it('keeps a frozen copy, and keeps nothing for inputs longer than the limit', async () => {
    const detectors = app.container.resolve(DetectorSet);
    const url = 'https://paypa1-secure-login.example-verify.com/signin';
    await detectors.run('agent_action', { url, target: parseTarget(url) });
    const runs = await detectors.run('agent_action', { url, target: parseTarget(url) });
    const reused = runs.find((r) => r.memoised && r.output!.findings.length > 0);
    assert.ok(reused, 'a memoised run with findings');
    assert.throws(() => {
      (reused.output!.findings as unknown[]).push({ flag: 'x' });
    }, TypeError);
    const long = { page_text: 'x'.repeat(OUTPUT_MEMO_MAX_INPUT) };
    await detectors.run('agent_action', { url, target: parseTarget(url), texts: long });
    const twice = await detectors.run('agent_action', { url, target: parseTarget(url), texts: long });
    assert.ok(twice.every((r) => !r.memoised));
  });
});
