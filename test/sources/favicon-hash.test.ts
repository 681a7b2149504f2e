import assert from 'node:assert/strict';
import { test } from 'node:test';
import { base64EncodeBytes, murmur3x86_32, shodanFaviconHash } from '../../core/evidence/sources/favicon-hash.ts';

test('murmur3 x86 32 matches Python mmh3.hash (signed) on published vectors', () => {
  const vectors: [string, number][] = [
    ['', 0],
    ['a', 1009084850],
    ['abc', -1277324294],
    ['foo', -156908512],
    ['hello', 613153351],
    ['The quick brown fox jumps over the lazy dog', 776992547],
  ];
  for (const [input, expected] of vectors) assert.equal(murmur3x86_32(Buffer.from(input)), expected, input);
});

test('base64 is wrapped like Python base64.encodebytes (76 chars + newline per line)', () => {
  // python3 -c "import base64;print(repr(base64.encodebytes(bytes([1]*100)).decode()))"
  assert.equal(
    base64EncodeBytes(Buffer.alloc(100, 1)),
    'AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB\nAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQ==\n',
  );
  assert.equal(base64EncodeBytes(Buffer.alloc(0)), '');
});

test('the favicon hash is mmh3 of the wrapped base64', () => {
  const icon = Buffer.alloc(100, 1);
  assert.equal(shodanFaviconHash(icon), murmur3x86_32(Buffer.from(base64EncodeBytes(icon))));
});
