// patterns.json is checked at load: a structure word list that is missing, empty or misspelt must fail loudly, not
// leave its rule silently empty.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { file, validatePatternFile } from './pattern-file.ts';

const withStructure = (change: (s: Record<string, unknown>) => void) => {
  const copy = structuredClone(file);
  change(copy.structure as unknown as Record<string, unknown>);
  return copy;
};

describe('validatePatternFile', () => {
  it('accepts the shipped file', () => {
    assert.doesNotThrow(() => validatePatternFile(file));
  });
  it('rejects a structure list that is missing', () => {
    const broken = withStructure((s) => {
      delete s.reminders;
    });
    assert.throws(() => validatePatternFile(broken), /structure\.reminders/);
  });
  it('rejects an empty list and a list holding a non-string', () => {
    assert.throws(
      () =>
        validatePatternFile(
          withStructure((s) => {
            s.editVerbsIntl = [];
          }),
        ),
      /structure\.editVerbsIntl/,
    );
    assert.throws(
      () =>
        validatePatternFile(
          withStructure((s) => {
            s.yourIntl = ['deine', 3];
          }),
        ),
      /structure\.yourIntl/,
    );
  });
});
