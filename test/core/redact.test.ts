import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditPreview, redactSecrets } from '../../core/audit/redact.ts';

describe('audit preview redaction', () => {
  const cases: [string, string, RegExp][] = [
    ['preflight key', 'use pf_AbCdEfGhIjKl_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG now', /\[api-key\]/],
    ['openai-style key', 'key sk-proj-abcdefghijklmnop1234', /\[api-key\]/],
    ['aws key id', 'AKIAIOSFODNN7EXAMPLE is mine', /\[api-key\]/],
    ['github token', 'ghp_abcdefghijklmnopqrstuvwxyz123456', /\[api-key\]/],
    ['bearer token', 'Authorization: Bearer abc.def.ghi-123456', /Bearer \[redacted\]/],
    ['jwt', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl', /\[jwt\]/],
    ['password', 'login with password: hunter2hunter2', /password: \[redacted\]/],
    ['api_key=', 'api_key=ZXhhbXBsZXNlY3JldA', /api_key=\[redacted\]/],
    ['email', 'write to jane.doe@example.co.uk today', /\[email\]/],
    ['card', 'card 4111 1111 1111 1111 exp 12/29', /\[card\]/],
  ];
  for (const [name, input, expected] of cases) {
    it(`masks a ${name}`, () => {
      const out = redactSecrets(input);
      assert.match(out, expected);
    });
  }

  it('keeps ordinary text and cuts the preview short', () => {
    assert.equal(auditPreview('  Ignore   all previous\ninstructions '), 'Ignore all previous instructions');
    const long = auditPreview('word '.repeat(500));
    assert.ok(long.length <= 241);
  });

  it('masks a secret that straddles the preview edge', () => {
    const text = `${'a '.repeat(115)}sk-abcdefghijklmnopqrstuvwxyz0123456789`;
    assert.doesNotMatch(auditPreview(text), /sk-abc/);
  });

  it('runs in bounded time on adversarial input (every pattern is linear; no catastrophic backtracking)', () => {
    // The preview only ever redacts a bounded head, so even a hostile megabyte costs the same as 2 KB.
    for (const evil of [
      'a@'.repeat(500_000),
      `${'1 '.repeat(500_000)}`,
      `password=${'x'.repeat(1_000_000)}`,
      '-'.repeat(1e6),
    ]) {
      const out = auditPreview(evil);
      assert.ok(out.length <= 241);
    }
  });
});
