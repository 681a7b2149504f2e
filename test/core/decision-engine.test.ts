import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pluginCatalog } from '../../app/index.ts';
import { ROOT_DIR } from '../../core/config.ts';
import { DecisionEngine } from '../../core/engine/decisions/decision-engine.ts';
import { loadRuleset } from '../../core/engine/rules/ruleset.ts';

// A small deterministic generator, so a failure names a reproducible case.
function* generatedFacts(seed: number, count: number) {
  let s = seed;
  const next = () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s;
  };
  const flags = [...pluginCatalog().flags.keys()];
  const severities = ['none', 'low', 'high'] as const;
  for (let i = 0; i < count; i++) {
    const picked = flags.filter(() => next() % 3 === 0).sort();
    yield {
      severity: severities[next() % 3]!,
      injection_detected: next() % 2 === 0,
      flags: picked,
      categories: [],
      score: next() % 101,
    };
  }
}

describe('decision engine', () => {
  const ruleset = loadRuleset(path.join(ROOT_DIR, 'rules'), pluginCatalog());

  it('the memoised path answers exactly as json-rules-engine does, on generated fact sets', async () => {
    const memoised = new DecisionEngine(ruleset.decisions.content);
    for (const facts of generatedFacts(7, 400)) {
      // Twice through the memo (miss, then hit) against a fresh engine evaluation each time.
      for (let round = 0; round < 2; round++) {
        const fast = await memoised.decide(facts);
        const reference = await new DecisionEngine(ruleset.decisions.content).evaluate(facts);
        assert.deepEqual(fast, reference, JSON.stringify(facts));
      }
    }
  });

  it('the strictest verdict wins and names its rule', async () => {
    const engine = new DecisionEngine(ruleset.decisions.content);
    const d = await engine.decide({ severity: 'low', flags: ['agent:hidden_text'] });
    assert.equal(d.verdict, 'block');
    assert.equal(d.winner?.name, 'content_hidden_instructions');
    assert.deepEqual(
      d.matched.map((m) => m.name),
      ['content_low_severity_injection', 'content_hidden_instructions'],
    );
    const clean = await engine.decide({ severity: 'none', flags: [] });
    assert.equal(clean.verdict, 'allow');
    assert.equal(clean.winner, undefined);
  });
});
