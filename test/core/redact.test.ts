import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditPreview, redactSecrets } from '../../core/services/audit/redact.ts';

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

// Issue 11 item 5: the secret shapes that were stored in the clear. For each, the secret part (second column) must
// not survive in the preview, in any spelling of it.
describe('redaction after normalisation: no secret shape survives', () => {
  const SECRET_SHAPES: [string, string, string][] = [
    ['card split by tabs', 'card 4111\t1111\t1111\t1111 thanks', '4111'],
    ['card split by double spaces', 'pay with 5500  0000  0000  0004', '0004'],
    ['card split by newlines', 'number:\n4111\n1111\n1111\n1111', '1111'],
    ['card split by NBSP', 'card 4111\u00a01111\u00a01111\u00a01111', '1111'],
    ['card split by dots (Luhn)', 'card 4111.1111.1111.1111 exp', '1111'],
    ['card split by zero-width', 'card 4111\u200b1111\u200b1111\u200b1111', '1111'],
    ['amex', 'amex 3782 822463 10005', '822463'],
    ['aws secret', 'aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'wJalrXUtnFEMI'],
    ['aws secret in ini', 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'bPxRfiCY'],
    ['aws key id', 'AKIAIOSFODNN7EXAMPLE', 'AKIAIOSFODNN7'],
    ['github fine-grained', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKL', '11ABCDEFG'],
    ['github classic', 'ghp_abcdefghijklmnopqrstuvwxyz123456', 'abcdefghijklmnop'],
    ['JSON token field', '{"token": "s3cr3t-value-123"}', 's3cr3t'],
    ['JSON secret field', '{"client_secret":"abc def ghi"}', 'abc def'],
    ['JSON password field', "{'password': 'hunter2'}", 'hunter2'],
    ['cookie header', 'Cookie: sessionid=abc123xyz; csrftoken=qwe456', 'abc123xyz'],
    ['cookie header second pair', 'Cookie: sessionid=abc123xyz; csrftoken=qwe456', 'qwe456'],
    ['set-cookie', 'Set-Cookie: sid=31d4d96e407aad42; Path=/; Secure', '31d4d96e'],
    ['full-width equals', 'password\uff1dhunter2hunter2', 'hunter2'],
    ['full-width colon', 'password\uff1a hunter2hunter2', 'hunter2'],
    ['full-width letters', '\uff50\uff41\uff53\uff53\uff57\uff4f\uff52\uff44=topsecret9', 'topsecret9'],
    ['sk- split by zero-width', 'key sk-proj-abcd\u200befghijklmnop1234567', 'efghijklmnop'],
    ['sk- split by word joiner', 'sk-\u2060ant-api03-abcdefghijklmnopqrstu', 'abcdefghijklmnop'],
    ['?token= in URL', 'see https://example.com/cb?token=abcd1234efgh&x=1', 'abcd1234'],
    ['access_token= in URL', 'https://example.com/#access_token=ya29.a0AfH6SMB&state=x', 'ya29'],
    ['sig= in URL', 'https://blob.example.net/c/f?sv=2020&sig=Zm9vYmFyYmF6cXV4%3D&se=1', 'Zm9vYmFy'],
    ['key= in URL', 'https://maps.example.com/api?key=AbCdEf123456', 'AbCdEf123456'],
    ['bearer', 'Authorization: Bearer abc.def.ghi-123456', 'abc.def.ghi'],
    ['bearer after newline', 'Authorization:\nBearer\tabcdefghijkl12345', 'abcdefghijkl'],
    ['jwt', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl', 'eyJzdWIi'],
    ['private key', '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----', 'MIIEowIB'],
    ['openssh key', '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n', 'b3BlbnNz'],
    ['email', 'mail jane.doe@example.co.uk now', 'jane.doe'],
    ['email with zero-width', 'mail jane\u200b.doe@example.com now', 'jane.doe'],
    ['x-api-key header', 'X-Api-Key: 9f8e7d6c5b4a39281706', '9f8e7d6c'],
    ['refresh_token', 'refresh_token=1//0gAbCdEfGhIjKl', '0gAbCdEf'],
    ['password with spaces', 'password : hunter2hunter2', 'hunter2'],
  ];
  for (const [name, input, secret] of SECRET_SHAPES) {
    it(`masks ${name}`, () => {
      const preview = auditPreview(input);
      assert.ok(!preview.includes(secret), `${JSON.stringify(input)} → ${JSON.stringify(preview)}`);
      assert.ok(!redactSecrets(input).includes(secret));
    });
  }

  it('leaves dotted version numbers and ordinary prose alone', () => {
    assert.equal(
      auditPreview('upgrade 1.2.3.4.5.6.7.8.9.10.11.12.13 today'),
      'upgrade 1.2.3.4.5.6.7.8.9.10.11.12.13 today',
    );
    assert.equal(auditPreview('the token bucket and the secret garden'), 'the token bucket and the secret garden');
  });

  it('every pattern stays linear on hostile input (no catastrophic backtracking)', () => {
    const n = 200_000;
    for (const evil of [
      'a_'.repeat(n),
      'x-'.repeat(n),
      `cookie: ${'a;'.repeat(n)}`,
      `"token": "${'x'.repeat(n)}`,
      `${'password'.repeat(n / 8)}`,
      '1.'.repeat(n),
      '1 .'.repeat(n),
      `-----BEGIN RSA PRIVATE KEY-----${'A'.repeat(n)}`,
      `${'-----BEGIN PRIVATE KEY-----'.repeat(n / 30)}`,
      `?key=${'&key='.repeat(n / 5)}`,
      `${'a'.repeat(60)}@`.repeat(n / 61),
      '\u200b'.repeat(n),
    ]) {
      // Correctness only (no timing): the test's own timeout catches an exponential pattern.
      assert.equal(typeof redactSecrets(evil), 'string');
    }
  });
});
