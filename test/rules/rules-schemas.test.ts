// rules/schema/*.json: emitted from the loader's own schemas, current, referenced by every rules file, and valid for
// the shipped files; every rules file is in the loader table with its merge mode.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { ROOT_DIR } from '../../core/config.ts';
import { allPublishedSchemas, RULES_FILES, schemaFileText } from '../../core/engine/rules/rules-files.ts';
import { DECISION_FACTS } from '../../core/engine/rules/ruleset.ts';
import { PLUGINS } from '../../plugins/index.ts';

const RULES = path.join(ROOT_DIR, 'rules');
/** Files under rules/ that are not rules: the spec's flag table. */
const NOT_RULES = new Set(['spec-flags.json']);

function rulesFilesOnDisk(dir = RULES, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    const rel = path.relative(RULES, full);
    if (e.isDirectory()) {
      if (rel !== 'local' && rel !== 'schema') rulesFilesOnDisk(full, out);
    } else if (e.name.endsWith('.json') && !NOT_RULES.has(rel)) out.push(rel.split(path.sep).join('/'));
  }
  return out.sort();
}

describe('rules schemas', () => {
  const schemas = allPublishedSchemas(PLUGINS.map((p) => p.detector.meta));

  it('rules/schema/*.json are current (npm run rules:schemas)', () => {
    const onDisk = readdirSync(path.join(RULES, 'schema')).sort();
    assert.deepEqual(
      onDisk,
      Object.keys(schemas)
        .map((n) => `${n}.json`)
        .sort(),
    );
    for (const [name, schema] of Object.entries(schemas)) {
      const text = readFileSync(path.join(RULES, 'schema', `${name}.json`), 'utf8');
      assert.equal(text, schemaFileText(schema), `rules/schema/${name}.json is stale: run npm run rules:schemas`);
    }
  });

  it('every rules file is in the loader table, and every table entry exists', () => {
    assert.deepEqual(rulesFilesOnDisk(), RULES_FILES.map((f) => f.file).sort());
  });

  for (const entry of RULES_FILES) {
    it(`${entry.file}: references rules/schema/${entry.schema}.json and validates against it`, () => {
      const data = JSON.parse(readFileSync(path.join(RULES, entry.file), 'utf8'));
      const expected = path.relative(path.dirname(path.join(RULES, entry.file)), path.join(RULES, 'schema'));
      assert.equal(data.$schema, `${expected.startsWith('.') ? expected : `./${expected}`}/${entry.schema}.json`);
      const validate = new Ajv({ allErrors: true, strict: false }).compile(schemas[entry.schema]!);
      assert.ok(validate(data), JSON.stringify(validate.errors));
    });
  }

  it('a published schema refuses what the loader refuses (unknown key, bad verdict)', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    const decisions = ajv.compile(schemas['decision-rules']!);
    const rule = { name: 'x', conditions: { all: [{ fact: 'intent', operator: 'equal', value: 'visit' }] } };
    assert.ok(
      decisions({ rules: [{ ...rule, event: { type: 'verdict', params: { verdict: 'block', reason: 'r' } } }] }),
    );
    assert.ok(
      !decisions({ rules: [{ ...rule, event: { type: 'verdict', params: { verdict: 'maybe', reason: 'r' } } }] }),
    );
    assert.ok(!ajv.compile(schemas['risk-levels']!)({ low: 0, medium: 20, high: 50, critical: 80, extra: 1 }));
  });

  it("each decision file's $comment names exactly its surface's facts (DECISION_FACTS, which the checks are typed by)", () => {
    const files = { content: 'content', action: 'action', tool_call: 'tool-call', url_verdict: 'url-verdict' } as const;
    for (const [surface, name] of Object.entries(files)) {
      const comment: string = JSON.parse(readFileSync(path.join(RULES, 'decisions', `${name}.json`), 'utf8')).$comment;
      const listed = comment.match(/Facts: (.*?)\. The strictest/)?.[1];
      assert.ok(listed, `decisions/${name}.json: $comment lists its facts as "Facts: …. The strictest"`);
      // Fact names are the words before each optional parenthesis, comma-separated.
      const names = listed
        .replace(/\([^)]*\)/g, '')
        .split(',')
        .map((x) => x.trim())
        .sort();
      assert.deepEqual(names, Object.keys(DECISION_FACTS[surface as keyof typeof files]).sort(), name);
    }
  });
});
