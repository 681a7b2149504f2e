import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, it } from 'node:test';
import { BatchSigner } from '../../core/engine/contract/batch-signer.ts';
import { canonicalJson, sha256Hex } from '../../core/engine/contract/canonical-json.ts';
import {
  closeSigner,
  contractCanonicalJson,
  DECISION_SCHEMA,
  decisionSha256,
  issueDecision,
  issueDecisionAsync,
  verifyDecision,
} from '../../core/engine/contract/decision-contract.ts';

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

  it('builds canonical JSON byte for byte as the general canonicaliser does, escapes and non-ASCII included', () => {
    const awkward = {
      ...fields,
      flags: ['agent:hidden_text', 'a"b\\c', '\u2028', 'é', '😀', '\u0000'],
      reasons: ['line\nbreak', '</script>', 'ﬁ'],
      actor: 'agent "x"',
      request_id: 'r/+=:@.',
      workspace_id: '00000000-0000-4000-8000-000000000000',
      ttl_seconds: 1.5,
    };
    for (const f of [fields, awkward]) {
      const c = issueDecision(f, key);
      assert.equal(contractCanonicalJson(c), canonicalJson(c));
      const { signature: _, ...body } = c;
      assert.equal(contractCanonicalJson(body), canonicalJson(body));
      assert.equal(decisionSha256(c), sha256Hex(canonicalJson(c)));
    }
    // A field the fast path does not know (or a nested object) still goes into the signed bytes.
    const extra = { ...issueDecision(fields, key), extension: { nested: true } };
    assert.equal(contractCanonicalJson(extra), canonicalJson(extra));
  });

  it('signs off the event loop with the same result a verifier expects', async () => {
    const c = await issueDecisionAsync(fields, key);
    assert.ok(verifyDecision(c, publicKey));
    assert.equal(verifyDecision({ ...c, reasons: ['other'] }, publicKey), false);
  });

  it('signs every contract of a turn in one batch, each byte for byte what signing here gives', async () => {
    const many = Array.from({ length: 50 }, (_, i) => ({ ...fields, request_id: `req-${i}` }));
    const contracts = await Promise.all(many.map((f) => issueDecisionAsync(f, key)));
    for (const c of contracts) {
      const { signature, ...body } = c;
      // Ed25519 is deterministic: the worker's signature is the one this thread makes over the same bytes.
      assert.equal(signature, sign(null, Buffer.from(contractCanonicalJson(body)), privateKey).toString('base64url'));
      assert.ok(verifyDecision(c, publicKey));
    }
    await closeSigner(key);
  });

  it('a worker that dies or is closed mid-batch leaves no signature behind: the rest are signed on this thread', async () => {
    const signer = new BatchSigner(privateKey);
    const data = Array.from({ length: 20 }, (_, i) => `payload ${i}`);
    const expected = data.map((d) => sign(null, Buffer.from(d), privateKey).toString('base64url'));
    assert.deepEqual(await Promise.all(data.map((d) => signer.sign(d))), expected);
    assert.equal(signer.stats.batches, 1);
    // Closed while a batch is on its way: that batch and later ones still come back signed.
    const pending = Promise.all(data.map((d) => signer.sign(d)));
    await new Promise((r) => setImmediate(r));
    await signer.close();
    assert.deepEqual(await pending, expected);
    assert.deepEqual(await Promise.all(data.map((d) => signer.sign(d))), expected);
    assert.ok(signer.stats.fallbacks >= 1, 'signed on this thread after close');
  });

  it("closed while the worker's answer waits unread: close() and the batch still settle", async () => {
    // The worker answers while this thread is busy; close() comes before that answer is read. Reading it must not
    // let the worker go unref'd before its exit, or the event loop ends with close() pending (a CI flake, now fixed).
    const signer = new BatchSigner(privateKey);
    const data = Array.from({ length: 20 }, (_, i) => `payload ${i}`);
    const expected = data.map((d) => sign(null, Buffer.from(d), privateKey).toString('base64url'));
    await Promise.all(data.map((d) => signer.sign(d)));
    for (let round = 0; round < 5; round++) {
      const pending = Promise.all(data.map((d) => signer.sign(d)));
      await new Promise((r) => setImmediate(r));
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20); // busy here while the worker answers
      if (round === 4) await signer.close();
      assert.deepEqual(await pending, expected);
    }
  });
});
