import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalIp, checkAddress, checkUrl } from '../../core/evidence/net/index.ts';

const REFUSED: [string, string][] = [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['0177.0.0.1', 'loopback'],
  ['0x7f.1', 'loopback'],
  ['2130706433', 'loopback'],
  ['127.1', 'loopback'],
  ['127.0.0.1.', 'loopback'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['::ffff:127.0.0.1', 'ipv4Mapped:loopback'],
  ['::ffff:7f00:1', 'ipv4Mapped:loopback'],
  ['64:ff9b::7f00:1', 'rfc6052:loopback'],
  ['64:ff9b:1::1', 'rfc6052'],
  ['2002:7f00:1::', '6to4:loopback'],
  ['::127.0.0.1', 'ipv4Compatible:loopback'],
  ['10.1.2.3', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.0.1', 'private'],
  ['169.254.1.1', 'linkLocal'],
  ['169.254.169.254', 'metadata'],
  ['0251.0376.0251.0376', 'metadata'],
  ['0xa9fea9fe', 'metadata'],
  ['fd00:ec2::254', 'metadata'],
  ['100.100.100.200', 'metadata'],
  ['::ffff:169.254.169.254', 'ipv4Mapped:metadata'],
  ['100.64.0.1', 'carrierGradeNat'],
  ['224.0.0.1', 'multicast'],
  ['ff02::1', 'multicast'],
  ['0.0.0.0', 'unspecified'],
  ['::', 'unspecified'],
  ['255.255.255.255', 'broadcast'],
  ['240.0.0.1', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['fe80::1', 'linkLocal'],
  ['fe80::1%eth0', 'linkLocal'],
  ['fc00::1', 'uniqueLocal'],
  ['fd12:3456::1', 'uniqueLocal'],
  ['2001:db8::1', 'reserved'],
  ['2001::1', 'teredo'],
  ['not-an-ip', 'invalid'],
  ['', 'invalid'],
];

test('refused addresses, however spelled, with the reason named', () => {
  for (const [ip, reason] of REFUSED) {
    const verdict = checkAddress(ip);
    assert.equal(verdict.allowed, false, `${ip} must be refused`);
    assert.equal(verdict.reason, reason, ip);
  }
});

test('public unicast is allowed, including NAT64 and 6to4 wrapping a public address', () => {
  for (const ip of [
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '2606:4700::1111',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '::ffff:8.8.8.8',
  ]) {
    assert.equal(checkAddress(ip).allowed, true, ip);
  }
});

test('WHATWG URL parsing already canonicalises IPv4 spellings, and the guard relies on it', () => {
  const spellings = [
    '2130706433',
    '0177.0.0.1',
    '0x7f.1',
    '127.1',
    '0x7f000001',
    '127.000.000.001',
    '127.0.0.1.',
    '１２７.０.０.１',
    '127。0。0。1',
  ];
  for (const host of spellings) assert.equal(new URL(`http://${host}/`).hostname, '127.0.0.1', host);
  assert.equal(new URL('http://[::ffff:127.0.0.1]/').hostname, '[::ffff:7f00:1]');
  assert.equal(new URL('http://evil.example@127.0.0.1/').hostname, '127.0.0.1');
  assert.equal(new URL('http://127.0.0.1@evil.example/').hostname, 'evil.example');
  assert.equal(canonicalIp('0x7f.1'), '127.0.0.1');
  assert.equal(canonicalIp('example.com'), undefined);
});

test('checkUrl refuses early what needs no DNS', () => {
  assert.equal(checkUrl('file:///etc/passwd').reason, 'scheme');
  assert.equal(checkUrl('gopher://127.0.0.1/').reason, 'scheme');
  assert.equal(checkUrl('http://localhost./').reason, 'local_name');
  assert.equal(checkUrl('http://a.b.localhost/').reason, 'local_name');
  assert.equal(checkUrl('http://[::ffff:7f00:1]:8080/').allowed, false);
  assert.equal(checkUrl('http://127.0.0.1:4000/', ['127.0.0.1:4000']).allowed, true);
  assert.equal(checkUrl('http://127.0.0.1:4001/', ['127.0.0.1:4000']).allowed, false);
  assert.equal(checkUrl('https://example.com/').allowed, true);
});
