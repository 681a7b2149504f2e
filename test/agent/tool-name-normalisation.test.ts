// Issue 11 item 4: the tool policy must not be bypassed by spelling a denied tool differently.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { normaliseName } from '../../core/engine/text/normalise.ts';
import { connectorOf, connectorStatus, evaluateToolPolicy } from '../../core/services/agent-policy/tool-policy.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

/** Spellings of `wire_money` that render (nearly) the same and must be treated as the same tool. */
const SPELLINGS: [string, string][] = [
  ['trailing space', 'wire_money '],
  ['leading tab', '\twire_money'],
  ['zero-width space', 'wire_money\u200b'],
  ['zero-width joiner inside', 'wire\u200d_money'],
  ['full-width w', '\uff57ire_money'],
  ['all full-width', '\uff37\uff29\uff32\uff25\uff3f\uff2d\uff2f\uff2e\uff25\uff39'],
  ['upper case', 'WIRE_MONEY'],
  ['bidi override', '\u202ewire_money\u202c'],
  ['word joiner and BOM', '\ufeffwire\u2060_money'],
  ['soft hyphen', 'wire_mo\u00adney'],
  ['Unicode tag characters', 'wire_money\u{e0020}\u{e0041}'],
  ['variation selector', 'wire_money\ufe0f'],
  ['NBSP padding', '\u00a0wire_money\u00a0'],
];

describe('tool and connector name normalisation', () => {
  it('normaliseName folds every spelling to the plain name', () => {
    for (const [label, spelling] of SPELLINGS) assert.equal(normaliseName(spelling), 'wire_money', label);
    assert.equal(normaliseName('search docs'), 'search docs', 'inner spaces stay (one)');
  });

  it('a denylist entry blocks every spelling of the tool, and a spelled entry blocks the plain call', () => {
    for (const [label, spelling] of SPELLINGS) {
      const plainEntry = evaluateToolPolicy(spelling, {
        mode: 'open',
        allowed_tools: [],
        denied_tools: ['wire_money'],
      });
      assert.equal(plainEntry.decision, 'block', label);
      assert.equal(plainEntry.matched, 'wire_money');
      const spelledEntry = evaluateToolPolicy('wire_money', {
        mode: 'open',
        allowed_tools: [],
        denied_tools: [spelling],
      });
      assert.equal(spelledEntry.decision, 'block', `entry ${label}`);
    }
    const pattern = evaluateToolPolicy('\uff37ire_money\u200b', {
      mode: 'open',
      allowed_tools: [],
      denied_tools: ['wire_*'],
    });
    assert.equal(pattern.decision, 'block', 'patterns match normalised names too');
  });

  it('an allowlist is not widened by invisible characters', () => {
    const policy = { mode: 'allowlist' as const, allowed_tools: ['search_docs'], denied_tools: [] };
    assert.equal(evaluateToolPolicy('search_docs\u200b', policy).decision, 'allow');
    assert.equal(evaluateToolPolicy('search_docs\u200bx', policy).decision, 'approval_required');
  });

  it('connectors are normalised the same way', () => {
    assert.equal(connectorOf('git\u200bhub.create_issue', undefined), 'github');
    assert.equal(connectorStatus('\uff47ithub ', ['github']), 'sanctioned');
    assert.equal(connectorStatus('evil\u200b', ['github']), 'unsanctioned');
    assert.equal(connectorOf('github.create_issue', '\u200b'), 'github', 'an invisible connector falls back');
  });
});

describe('the tool policy over HTTP', () => {
  let t: TestServer;
  let agent: string;
  before(async () => {
    t = await startTestServer();
    agent = await t.key('acme', 'agent');
    const admin = await t.key('acme', 'admin');
    const res = await t.request('PUT', '/agent/policy', {
      key: admin,
      body: { tool_policy: { denied_tools: ['wire_money'] }, connectors: ['github'] },
    });
    assert.equal(res.status, 200);
  });
  after(() => t.close());

  for (const [label, spelling] of SPELLINGS) {
    it(`blocks ${label}`, async () => {
      const res = await t.request('POST', '/agent/guardrail', {
        key: agent,
        body: { kind: 'tool_call', tool: spelling, arguments: { amount: 10 } },
      });
      assert.equal(res.status, 200);
      assert.equal(res.body.agent_decision, 'block');
      assert.equal(res.body.tool_policy.reason, 'tool_denylisted');
    });
  }

  it('a tool name of only invisible characters is a 400', async () => {
    const res = await t.request('POST', '/agent/guardrail', {
      key: agent,
      body: { kind: 'tool_call', tool: '\u200b\u2060' },
    });
    assert.equal(res.status, 400);
  });
});
