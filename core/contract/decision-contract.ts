import { type KeyObject, randomUUID, sign, verify } from 'node:crypto';
import type { Surface } from '../detector.ts';
import { canonicalJson, sha256Hex, type Verdict } from '../rules/ruleset.ts';
import type { SigningKey } from './signing-keys.ts';

export const DECISION_SCHEMA = 'service.decision.v1';

/** The signed record of one verdict. Everything a verifier needs is in it, except the public key. */
export interface DecisionContract {
  schema: typeof DECISION_SCHEMA;
  id: string;
  surface: Exclude<Surface, 'scan'>;
  verdict: Verdict;
  flags: string[];
  reasons: string[];
  issued_at: string;
  expires_at: string;
  ttl_seconds: number;
  request_id: string;
  actor: string | null;
  workspace_id: string | null;
  input_sha256: string;
  ruleset_hash: string;
  key_id: string;
  alg: 'Ed25519';
  signature: string;
}

export type UnsignedContract = Omit<DecisionContract, 'signature' | 'key_id' | 'alg' | 'schema' | 'id'>;

export function issueDecision(fields: UnsignedContract, key: SigningKey): DecisionContract {
  const body = {
    schema: DECISION_SCHEMA as typeof DECISION_SCHEMA,
    id: randomUUID(),
    ...fields,
    key_id: key.keyId,
    alg: 'Ed25519' as const,
  };
  const signature = sign(null, Buffer.from(canonicalJson(body)), key.privateKey).toString('base64url');
  return { ...body, signature };
}

/** Checks the signature over the canonical JSON of every other field. */
export function verifyDecision(contract: DecisionContract, publicKey: KeyObject): boolean {
  const { signature, ...body } = contract;
  return verify(null, Buffer.from(canonicalJson(body)), publicKey, Buffer.from(signature, 'base64url'));
}

export function decisionSha256(contract: DecisionContract): string {
  return sha256Hex(canonicalJson(contract));
}

export function expiryFrom(issuedAt: Date, ttlSeconds: number): string {
  return new Date(issuedAt.getTime() + ttlSeconds * 1000).toISOString();
}
