import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { DECISION_SCHEMA, issueDecision, verifyDecision } from '../../core/contract/decision-contract.ts';

describe('decision contract', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const key = { keyId: 'k1', privateKey, publicKey, publicKeyPem: '' };
  const fields = {
    surface: 'agent_content' as const,
    verdict: 'block' as const,
    flags: ['agent:injected_instructions'],
    reasons: ['r'],
    issued_at: '2026-11-22T00:00:00.000Z',
    expires_at: '2026-11-22T00:05:00.000Z',
    ttl_seconds: 300,
    request_id: 'req-1',
    actor: null,
    workspace_id: null,
    input_sha256: 'a'.repeat(64),
    ruleset_hash: 'b'.repeat(64),
  };

  it('is signed over its canonical JSON and verifies', () => {
    const c = issueDecision(fields, key);
    assert.equal(c.schema, DECISION_SCHEMA);
    assert.equal(c.alg, 'Ed25519');
    assert.ok(verifyDecision(c, publicKey));
    // Key order does not matter to a verifier: canonical JSON sorts keys.
    const reordered = Object.fromEntries(Object.entries(c).reverse()) as typeof c;
    assert.ok(verifyDecision(reordered, publicKey));
  });

  it('fails verification when any field changes or another key is used', () => {
    const c = issueDecision(fields, key);
    assert.equal(verifyDecision({ ...c, verdict: 'allow' }, publicKey), false);
    assert.equal(verifyDecision({ ...c, flags: [] }, publicKey), false);
    assert.equal(verifyDecision(c, generateKeyPairSync('ed25519').publicKey), false);
  });
});
