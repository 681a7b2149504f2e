import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pluginCatalog } from '../../app/index.ts';
import { ROOT_DIR } from '../../core/config.ts';
import { DecisionEngines } from '../../core/engine/decisions/decision-engines.ts';
import { canonicalJson, flatCanonicalJson, loadRuleset, RulesError } from '../../core/engine/rules/ruleset.ts';

function copyRules(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'preflight-rules-'));
  cpSync(path.join(ROOT_DIR, 'rules'), dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}local`) });
  return dir;
}

function edit(dir: string, file: string, change: (json: any) => void): void {
  const full = path.join(dir, file);
  const json = JSON.parse(readFileSync(full, 'utf8'));
  change(json);
  writeFileSync(full, JSON.stringify(json));
}

function problemsOf(dir: string) {
  try {
    loadRuleset(dir, pluginCatalog());
  } catch (err) {
    assert.ok(err instanceof RulesError, `expected RulesError, got ${err}`);
    return err.problems;
  }
  assert.fail('the ruleset loaded, but it should not have');
}

describe('rules loading and validation', () => {
  const catalog = pluginCatalog();

  it('loads the shipped rules, with a weight for every declared flag', () => {
    const ruleset = loadRuleset(path.join(ROOT_DIR, 'rules'), catalog);
    for (const flag of catalog.flags.keys()) assert.equal(typeof ruleset.weights[flag], 'number', flag);
    assert.match(ruleset.hash, /^[0-9a-f]{64}$/);
  });

  it('hashes the canonical merged rules: formatting does not change the hash, a weight does', () => {
    const dir = copyRules();
    const before = loadRuleset(dir, catalog).hash;
    const file = path.join(dir, 'risk-levels.json');
    writeFileSync(file, JSON.stringify(JSON.parse(readFileSync(file, 'utf8')), null, 8));
    assert.equal(loadRuleset(dir, catalog).hash, before);
    edit(dir, 'weights.json', (w) => {
      w['agent:hidden_text'] = 41;
    });
    const after = loadRuleset(dir, catalog);
    assert.notEqual(after.hash, before);
    assert.equal(after.weights['agent:hidden_text'], 41);
  });

  it('keeps plans.json (quotas) out of the hash, and the scan-history thresholds in it', () => {
    const dir = copyRules();
    const before = loadRuleset(dir, catalog).hash;
    edit(dir, 'plans.json', (p) => {
      p.anonymous.rate_limit_per_minute += 1;
    });
    const quota = loadRuleset(dir, catalog);
    assert.equal(quota.hash, before);
    assert.equal(
      quota.plans.anonymous.rate_limit_per_minute,
      JSON.parse(readFileSync(path.join(dir, 'plans.json'), 'utf8')).anonymous.rate_limit_per_minute,
    );
    edit(dir, 'scan-history.json', (h) => {
      h.flagged_risk_levels = ['critical'];
    });
    const tuned = loadRuleset(dir, catalog);
    assert.notEqual(tuned.hash, before);
    assert.deepEqual(tuned.scanHistory.flagged_risk_levels, ['critical']);
  });

  it('url_verdict.action comes from decisions/url-verdict.json (shipped: feed hit or high+ blocks, medium asks)', async () => {
    const facts = (risk: string, malicious = false) => ({
      destination_malicious: malicious,
      destination_category: malicious ? 'phishing' : 'unknown',
      destination_risk_level: risk,
      destination_score: 0,
      known_good: false,
      flags: [],
    });
    const shipped = new DecisionEngines(loadRuleset(path.join(ROOT_DIR, 'rules'), catalog)).for('url_verdict');
    const expected: Record<string, string> = {
      low: 'allow',
      medium: 'approval_required',
      high: 'block',
      critical: 'block',
    };
    for (const [risk, verdict] of Object.entries(expected)) {
      assert.equal((await shipped.decide(facts(risk))).verdict, verdict, risk);
      assert.equal((await shipped.decide(facts(risk, true))).verdict, 'block', `${risk}, listed`);
    }
    // Tuned per deployment by rule name, like every decision file.
    const dir = copyRules();
    mkdirSync(path.join(dir, 'local', 'decisions'), { recursive: true });
    const local = JSON.parse(readFileSync(path.join(dir, 'decisions', 'url-verdict.json'), 'utf8'));
    local.rules = local.rules.filter((r: any) => r.name === 'medium_risk_destination');
    local.rules[0].event.params.verdict = 'allow';
    writeFileSync(path.join(dir, 'local', 'decisions', 'url-verdict.json'), JSON.stringify(local));
    const tuned = new DecisionEngines(loadRuleset(dir, catalog)).for('url_verdict');
    assert.equal((await tuned.decide(facts('medium'))).verdict, 'allow');
    assert.equal((await tuned.decide(facts('high'))).verdict, 'block');
  });

  it('names the file, the JSON pointer and the reason for a schema error', () => {
    const dir = copyRules();
    edit(dir, 'decisions/content.json', (d) => {
      d.rules[1].event.params.verdict = 'maybe';
    });
    const [p] = problemsOf(dir);
    assert.equal(p?.file, path.join(dir, 'decisions/content.json'));
    assert.equal(p?.pointer, '/rules/1/event/params/verdict');
    assert.match(p?.message ?? '', /allowed values/);
  });

  it('refuses a weight for an unknown flag', () => {
    const dir = copyRules();
    edit(dir, 'weights.json', (w) => {
      w['agent:made_up'] = 10;
    });
    const [p] = problemsOf(dir);
    assert.equal(p?.pointer, '/agent:made_up');
    assert.match(p?.message ?? '', /unknown flag agent:made_up/);
  });

  it('refuses a decision rule over an unknown fact or an unknown flag', () => {
    const dir = copyRules();
    edit(dir, 'decisions/content.json', (d) => {
      d.rules.push({
        name: 'typo',
        conditions: {
          any: [
            { fact: 'severty', operator: 'equal', value: 'high' },
            { fact: 'flags', operator: 'contains', value: 'agent:nope' },
          ],
        },
        event: { type: 'verdict', params: { verdict: 'block', reason: 'x' } },
      });
    });
    const messages = problemsOf(dir).map((p) => `${p.pointer} ${p.message}`);
    assert.ok(
      messages.some((m) => m.includes('/conditions/any/0/fact unknown fact severty')),
      messages.join('\n'),
    );
    assert.ok(
      messages.some((m) => m.includes('/conditions/any/1/value unknown flag "agent:nope"')),
      messages.join('\n'),
    );
  });

  it('reports unparseable JSON and missing required files', () => {
    const dir = copyRules();
    writeFileSync(path.join(dir, 'risk-levels.json'), '{ "low": 0,');
    const problems = problemsOf(dir);
    assert.ok(problems.some((p) => p.file.endsWith('risk-levels.json') && /JSON/.test(p.message)));
    const empty = mkdtempSync(path.join(os.tmpdir(), 'preflight-rules-'));
    assert.ok(problemsOf(empty).some((p) => p.file.endsWith('decisions/content.json') && p.message === 'missing'));
  });

  it('merges rules/local over the shipped rules by flag id and rule name', () => {
    const dir = copyRules();
    mkdirSync(path.join(dir, 'local', 'decisions'), { recursive: true });
    writeFileSync(path.join(dir, 'local', 'weights.json'), JSON.stringify({ 'agent:hidden_text': 5 }));
    writeFileSync(
      path.join(dir, 'local', 'decisions', 'content.json'),
      JSON.stringify({
        rules: [
          {
            name: 'content_low_severity_injection',
            conditions: { all: [{ fact: 'severity', operator: 'equal', value: 'low' }] },
            event: { type: 'verdict', params: { verdict: 'block', reason: 'this deployment blocks every hit' } },
          },
        ],
      }),
    );
    const ruleset = loadRuleset(dir, catalog);
    assert.equal(ruleset.weights['agent:hidden_text'], 5);
    const low = ruleset.decisions.content.find((r) => r.name === 'content_low_severity_injection');
    assert.equal(low?.event.params.verdict, 'block');
    assert.equal(ruleset.decisions.content.length, 3);
  });

  it('validates per-deployment detector settings against the plugin schema, and hashes them', () => {
    const dir = copyRules();
    const before = loadRuleset(dir, catalog).hash;
    writeFileSync(path.join(dir, 'detectors.json'), JSON.stringify({ whois: { veryRecentMaxDays: 90 } }));
    const tuned = loadRuleset(dir, catalog);
    assert.deepEqual(tuned.detectors.whois, { veryRecentMaxDays: 90 });
    assert.notEqual(tuned.hash, before);

    writeFileSync(path.join(dir, 'detectors.json'), JSON.stringify({ whois: { veryRecentMaxDays: 'sixty' } }));
    const [bad] = problemsOf(dir);
    assert.equal(bad?.pointer, '/whois/veryRecentMaxDays');
    assert.match(bad?.message ?? '', /integer/);

    writeFileSync(path.join(dir, 'detectors.json'), JSON.stringify({ whios: {} }));
    assert.match(problemsOf(dir)[0]?.message ?? '', /unknown plugin whios/);
  });

  it('flatCanonicalJson is canonicalJson byte for byte, and refuses what it refuses, on generated records', () => {
    let seed = 11;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    const strings = [
      '',
      'a',
      'Z',
      'é',
      'ﬁ',
      '😀',
      'line\nbreak',
      'q"uote',
      'back\\slash',
      '\u2028',
      '\u0000',
      'a\uD800',
    ];
    const values = () => {
      const n = next() % 8;
      if (n === 0) return strings[next() % strings.length];
      if (n === 1) return (next() % 2000) - 1000 + (next() % 3 === 0 ? 0.5 : 0);
      if (n === 2) return next() % 2 === 0;
      if (n === 3) return null;
      if (n === 4) return undefined;
      if (n === 5) return strings.filter(() => next() % 3 === 0);
      if (n === 6) return [1, 'x'];
      return { nested: strings[next() % strings.length] };
    };
    for (let i = 0; i < 2000; i++) {
      const record: Record<string, unknown> = {};
      for (let k = next() % 6; k > 0; k--) record[strings[next() % strings.length]! + (next() % 3)] = values();
      let expected: string | Error;
      try {
        expected = canonicalJson(record);
      } catch (err) {
        expected = err as Error;
      }
      if (expected instanceof Error) assert.throws(() => flatCanonicalJson(record), JSON.stringify(record));
      else assert.equal(flatCanonicalJson(record), expected);
    }
  });
});
