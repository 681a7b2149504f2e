// Issue 13: one Scorer serves the scan and the agent surfaces; rules/agent-scoring.json says which parts of the
// scan's arithmetic the agent surfaces use (shipped: none, the plain sum they always scored with).
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pluginCatalog } from '../../app/index.ts';
import { ROOT_DIR } from '../../core/config.ts';
import { loadRuleset } from '../../core/engine/rules/ruleset.ts';
import { Scorer } from '../../core/engine/scoring/score-breakdown.ts';

const catalog = pluginCatalog();
const shipped = loadRuleset(path.join(ROOT_DIR, 'rules'), catalog);
const allOn = new Scorer({
  ...shipped,
  agentScoring: { ...shipped.agentScoring, category_caps: true, adjustments: true, prefix_weights: true },
});
const scorer = new Scorer(shipped);
// Weak-category flags only: a scan caps them (hygiene_only); the shipped agent arithmetic adds them up.
const weak = ['ct:new_certificate_footprint', 'history:thin_public_footprint', 'ssl:missing_hsts'];
const plain = weak.reduce((sum, f) => sum + (shipped.weights[f] ?? 0), 0);
const scanFacts = { brand_owned: false, known_good: false, domain_age_days: -1, first_seen_days_ago: -1 };

describe('agent-surface scoring', () => {
  it('shipped settings score a part as the plain sum of exact weights, at most 100', async () => {
    assert.equal(await scorer.agentPoints(weak), plain);
    assert.ok((await scorer.score(weak, scanFacts)).breakdown.applied_score < plain, 'the scan caps the same flags');
    assert.equal(await scorer.agentPoints(['brand:ct_sibling_impersonation_acme']), 0);
    assert.equal(scorer.agentWeightOf('brand:ct_sibling_impersonation_acme'), 0);
    assert.equal(await scorer.agentPoints(['agent:credential_lure_for_agents', 'email:malicious_link']), 100);
    assert.equal(await scorer.agentPoints([]), 0);
  });

  it('with every switch on, a part scores as a scan of the same flags', async () => {
    assert.equal(await allOn.agentPoints(weak), (await allOn.score(weak, scanFacts)).breakdown.applied_score);
    assert.equal(
      allOn.agentWeightOf('brand:ct_sibling_impersonation_acme'),
      shipped.weights['brand:ct_sibling_impersonation_'],
    );
  });

  it('the screen: high scores screen.high, low its points up to low_max, none 0', async () => {
    const flags = ['agent:credential_lure_for_agents', 'agent:hidden_text'];
    assert.equal(await scorer.screenPoints('high', []), shipped.agentScoring.screen.high);
    assert.equal(await scorer.screenPoints('low', flags), Math.min(shipped.agentScoring.screen.low_max, 110));
    assert.equal(await scorer.screenPoints('low', ['agent:hidden_text']), shipped.weights['agent:hidden_text']);
    assert.equal(await scorer.screenPoints('none', flags), 0);
  });

  it('flags are sorted into parts by the role of the plugin that declared them, not by prefix', () => {
    assert.equal(catalog.rolesOf('agent:hidden_text').agentScreen, true);
    assert.equal(catalog.rolesOf('agent:tool_definition_changed').toolDefinition, true);
    assert.deepEqual(catalog.rolesOf('url:learned_phishing_likelihood'), {});
    assert.deepEqual(catalog.rolesOf('no:such_flag'), {});
  });
});
