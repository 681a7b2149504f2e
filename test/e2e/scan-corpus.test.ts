// `npx preflight scan-corpus SITES_DIR LABELS.json`: full lab scans of a tiny labelled corpus (a Microsoft sign-in
// on a free-hosting tenant, a library's own sign-in, a host the lab's DNS does not know), tables and JSON.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT_DIR } from '../../core/config.ts';
import { createTestDatabase } from '../support/database.ts';
import { embeddedEnv, runCli } from '../support/processes.ts';

const corpus = path.join(ROOT_DIR, 'test', 'e2e', 'fixtures', 'scan-corpus');

describe('npx preflight scan-corpus', () => {
  let env: NodeJS.ProcessEnv;
  let drop: () => Promise<void>;
  before(async () => {
    const db = await createTestDatabase();
    drop = db.drop;
    env = { ...embeddedEnv(mkdtempSync(path.join(os.tmpdir(), 'preflight-corpus-'))), DATABASE_URL: db.url };
  });
  after(() => drop());

  it('scans every labelled host and reports per label and per site (JSON)', async () => {
    const out = await runCli(
      ['scan-corpus', path.join(corpus, 'sites'), path.join(corpus, 'labels.json'), '--json', '--no-browser'],
      env,
    );
    assert.equal(out.code, 0, out.stderr);
    const report = JSON.parse(out.stdout);
    const site = (h: string) => report.sites.find((s: { host: string }) => s.host === h);
    const kit = site('quiet-harbor-4410.vercel.app');
    assert.ok(kit.flagged, `kit scored ${kit.score} ${kit.risk_level}: ${kit.flags.join(' ')}`);
    assert.deepEqual(kit.missing_flags, []);
    assert.ok(kit.reconciles);
    const library = site('lindenbrook-library.org');
    assert.equal(library.flagged, false, library.flags.join(' '));
    assert.ok(!library.flags.includes('content:brand_impersonation'));
    // No DNS answer, no HTTP, no TLS: the scan says it saw nothing rather than passing as clean.
    const nowhere = site('nowhere-at-all-7c1f.example');
    assert.equal(nowhere.degraded, true);
    assert.equal(nowhere.flagged, false);
    const phishing = report.labels.find((l: { label: string }) => l.label === 'phishing');
    assert.deepEqual(phishing, { label: 'phishing', n: 1, high_or_critical: 1, rate: 1, expect_flags_met: 1 });
    assert.equal(report.browser, false);
    assert.equal(report.rules_dir, path.join(ROOT_DIR, 'rules'));
  });

  it('judges under another rules folder with --rules (a local/ overlay weighing flags 0, as ablations do)', async () => {
    const args = [
      'scan-corpus',
      path.join(corpus, 'sites'),
      path.join(corpus, 'labels.json'),
      '--json',
      '--no-browser',
    ];
    const shipped = JSON.parse((await runCli(args, env)).stdout);
    const kitFlags: string[] = shipped.sites.find(
      (s: { host: string }) => s.host === 'quiet-harbor-4410.vercel.app',
    ).flags;
    const rules = path.join(mkdtempSync(path.join(os.tmpdir(), 'preflight-rules-')), 'rules');
    cpSync(path.join(ROOT_DIR, 'rules'), rules, {
      recursive: true,
      filter: (src) => !src.includes(`${path.sep}local`),
    });
    mkdirSync(path.join(rules, 'local'));
    writeFileSync(
      path.join(rules, 'local', 'weights.json'),
      JSON.stringify(Object.fromEntries(kitFlags.map((f) => [f, 0]))),
    );
    const out = await runCli([...args, '--rules', rules], env);
    assert.equal(out.code, 0, out.stderr);
    const report = JSON.parse(out.stdout);
    assert.equal(report.rules_dir, rules);
    assert.notEqual(report.ruleset_hash, shipped.ruleset_hash);
    const kit = report.sites.find((s: { host: string }) => s.host === 'quiet-harbor-4410.vercel.app');
    assert.deepEqual(kit.flags, kitFlags, 'the same flags fire');
    assert.equal(kit.score, 0);
    assert.equal(kit.flagged, false);
  });

  it('prints the per-label table and per-site rows', async () => {
    const out = await runCli(
      ['scan-corpus', path.join(corpus, 'sites'), path.join(corpus, 'labels.json'), '--no-browser'],
      env,
    );
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /^\| phishing \| 1 \| 1 \| 100\.0 % \| 1\/1 \|$/m);
    assert.match(out.stdout, /^\| benign \| 1 \| 0 \| 0\.0 % \| 1\/1 \|$/m);
    assert.match(out.stdout, /^\| nowhere-at-all-7c1f\.example \| unreachable \| \d+ \| low \(degraded\) \|/m);
  });
});
