// rules/decisions/web-access.json and rules/escalation.json: validated at load, part of the ruleset hash.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pluginCatalog } from '../../app/index.ts';
import { ROOT_DIR } from '../../core/config.ts';
import { loadRuleset, RulesError } from '../../core/engine/rules/ruleset.ts';

const catalog = pluginCatalog();

function copy(edit: (dir: string) => void): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'preflight-rules-'));
  cpSync(path.join(ROOT_DIR, 'rules'), dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}local`) });
  edit(dir);
  return dir;
}

function editJson(dir: string, file: string, change: (d: any) => void) {
  const full = path.join(dir, file);
  const data = JSON.parse(readFileSync(full, 'utf8'));
  change(data);
  writeFileSync(full, JSON.stringify(data));
}

function problemsOf(dir: string) {
  try {
    loadRuleset(dir, catalog);
  } catch (err) {
    assert.ok(err instanceof RulesError);
    return err.problems;
  }
  assert.fail('the ruleset loaded, but it should not have');
}

describe('web-access and escalation rules', () => {
  it('loads the shipped files', () => {
    const rules = loadRuleset(path.join(ROOT_DIR, 'rules'), catalog);
    assert.ok(rules.webAccess.some((r) => r.name === 'listed_threat'));
    assert.ok(rules.escalation.some((r) => r.name === 'critical_scan'));
  });

  it('a web-access verdict outside allow|warn|block, or a rule without coaching, stops the load', () => {
    const dir = copy((d) =>
      editJson(d, 'decisions/web-access.json', (x) => {
        x.rules[0].event.params.verdict = 'approval_required';
        delete x.rules[1].event.params.coaching_message;
      }),
    );
    const problems = problemsOf(dir);
    assert.ok(
      problems.some((p) => p.pointer === '/rules/0/event/params/verdict'),
      JSON.stringify(problems),
    );
    assert.ok(problems.some((p) => p.pointer === '/rules/1/event/params' && /coaching_message/.test(p.message)));
  });

  it('unknown facts and flags in either file are errors with their pointer', () => {
    const dir = copy((d) => {
      editJson(d, 'decisions/web-access.json', (x) => {
        x.rules[0].conditions.all[0].fact = 'listed';
      });
      editJson(d, 'escalation.json', (x) => {
        x.rules[0].conditions.all.push({ fact: 'flags', operator: 'contains', value: 'agent:no_such_flag' });
      });
    });
    const problems = problemsOf(dir);
    assert.ok(
      problems.some((p) => p.pointer === '/rules/0/conditions/all/0/fact' && /unknown fact listed/.test(p.message)),
    );
    assert.ok(problems.some((p) => /escalation\.json$/.test(p.file) && /unknown flag/.test(p.message)));
  });

  it('both files are part of the ruleset hash', () => {
    const base = loadRuleset(path.join(ROOT_DIR, 'rules'), catalog).hash;
    const coaching = copy((d) =>
      editJson(d, 'decisions/web-access.json', (x) => {
        x.rules[0].event.params.coaching_message = 'Blocked.';
      }),
    );
    const escalation = copy((d) =>
      editJson(d, 'escalation.json', (x) => {
        x.rules[0].event.params.severity = 'high';
      }),
    );
    assert.notEqual(loadRuleset(coaching, catalog).hash, base);
    assert.notEqual(loadRuleset(escalation, catalog).hash, base);
  });
});
