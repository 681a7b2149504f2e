import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { globMatch } from '../../core/services/agent-policy/glob.ts';
import { connectorOf, connectorStatus, evaluateToolPolicy } from '../../core/services/agent-policy/tool-policy.ts';
import { applyPatch, DEFAULT_POLICY } from '../../core/services/agent-policy/workspace-policy.ts';
import { stringLeaves } from '../../core/services/checks/json-leaves.ts';

describe('tool-policy building blocks', () => {
  it('globs: * matches any run, case-insensitive, whole name only', () => {
    const table: [string, string, boolean][] = [
      ['shell_*', 'shell_exec', true],
      ['shell_*', 'SHELL_EXEC', true],
      ['shell_*', 'myshell_exec', false],
      ['*delete*', 'bulk_delete_rows', true],
      ['*pay', 'stripe_pay', true],
      ['*pay', 'payroll', false],
      ['read_file', 'read_file', true],
      ['read_file', 'read_files', false],
      ['a*b*c', 'aXXbYYc', true],
      ['a*b*c', 'aXXbYY', false],
      ['*', '', true],
    ];
    for (const [pattern, name, expected] of table)
      assert.equal(globMatch(pattern, name), expected, `${pattern} ~ ${name}`);
  });

  it('globs stay fast on hostile patterns (no exponential blow-up)', () => {
    // With one backtrack point the work is bounded by pattern × name; 200 × 200 is instant.
    assert.equal(globMatch(`${'*a'.repeat(100)}b`, 'a'.repeat(200)), false);
  });

  it('evaluates deny before allow, and the modes', () => {
    const p = { mode: 'allowlist' as const, allowed_tools: ['x*'], denied_tools: ['xz'] };
    assert.deepEqual(evaluateToolPolicy('xz', p), {
      mode: 'allowlist',
      decision: 'block',
      reason: 'tool_denylisted',
      matched: 'xz',
    });
    assert.equal(evaluateToolPolicy('xa', p).reason, 'tool_allowlisted');
    assert.equal(evaluateToolPolicy('ya', p).reason, 'tool_not_allowlisted');
    assert.equal(evaluateToolPolicy('ya', { ...p, mode: 'open' }).reason, 'open_mode');
  });

  it('finds the connector of MCP-style tool names', () => {
    assert.equal(connectorOf('github.create_issue', undefined), 'github');
    assert.equal(connectorOf('github/create_issue', undefined), 'github');
    assert.equal(connectorOf('mcp__google_drive__search', undefined), 'google_drive');
    assert.equal(connectorOf('search', undefined), undefined);
    assert.equal(connectorOf('search', 'slack'), 'slack');
    assert.equal(connectorStatus('slack', null), 'ungoverned');
    assert.equal(connectorStatus('slack', ['sl*']), 'sanctioned');
    assert.equal(connectorStatus('slack', []), 'unsanctioned');
    assert.equal(connectorStatus(undefined, []), 'none');
  });

  it('patches merge per field and deduplicate', () => {
    const next = applyPatch(DEFAULT_POLICY, { tool_policy: { denied_tools: ['a', 'a', ' b '] }, connectors: ['gh'] });
    assert.deepEqual(next.tool_policy, { mode: 'open', allowed_tools: [], denied_tools: ['a', 'b'] });
    assert.deepEqual(next.connectors, ['gh']);
    assert.equal(applyPatch(next, { connectors: null }).connectors, null);
    assert.deepEqual(applyPatch(next, { tool_policy: { mode: 'allowlist' } }).tool_policy.denied_tools, ['a', 'b']);
  });

  it('walks nested arguments breadth-first with JSON paths, and bounds the walk', () => {
    const { leaves } = stringLeaves({ a: 'x', b: [{ 'c d': 'y' }, 3, null], e: { f: { g: 'z' } } });
    assert.deepEqual(leaves, [
      ['$.a', 'x'],
      ['$.b[0]["c d"]', 'y'],
      ['$.e.f.g', 'z'],
    ]);
    let deep: unknown = 'bottom';
    for (let i = 0; i < 200; i++) deep = { n: deep };
    assert.equal(stringLeaves(deep).truncated, true);
    assert.equal(stringLeaves(Array.from({ length: 5000 }, () => 'x')).leaves.length, 2000);
  });
});
