import { type KeyObject, randomUUID, sign, verify } from 'node:crypto';
import type { Surface } from '../../detector.ts';
import type { SigningKey } from '../../services/signing/signing-keys.ts';
import type { Verdict } from '../rules/ruleset.ts';
import { BatchSigner } from './batch-signer.ts';
import { canonicalJson, sha256Hex } from './canonical-json.ts';

export const DECISION_SCHEMA = 'service.decision.v1';

/** Surfaces beyond the agent checks that sign their verdicts too (a person's browser or proxy: allow|warn|block). */
export type ContractSurface = Exclude<Surface, 'scan'> | 'web_access';
export type ContractVerdict = Verdict | 'warn';

/** The signed record of one verdict. Everything a verifier needs is in it, except the public key. */
export interface DecisionContract {
  schema: typeof DECISION_SCHEMA;
  id: string;
  surface: ContractSurface;
  verdict: ContractVerdict;
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

// The contract's keys in canonical (RFC 8785: UTF-16 code unit) order, with and without the signature.
const SIGNED_KEYS = [
  'actor',
  'alg',
  'expires_at',
  'flags',
  'id',
  'input_sha256',
  'issued_at',
  'key_id',
  'reasons',
  'request_id',
  'ruleset_hash',
  'schema',
  'signature',
  'surface',
  'ttl_seconds',
  'verdict',
  'workspace_id',
] as const;
const UNSIGNED_KEYS = SIGNED_KEYS.filter((k) => k !== 'signature');

/**
 * The canonical JSON of a contract (or of its signed body), byte for byte what `canonicalJson` gives, built in one
 * pass: the key set is known and every value is a string, number, null or list of strings, whose JSON.stringify
 * form is already canonical. Anything else (an extra or missing field, a nested object) takes the general path,
 * so the signature always covers every field present.
 */
export function contractCanonicalJson(value: object): string {
  const record = value as Record<string, unknown>;
  const keys = 'signature' in record ? SIGNED_KEYS : UNSIGNED_KEYS;
  if (Object.keys(record).length !== keys.length) return canonicalJson(value);
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const v = record[k];
    if (v === undefined || (typeof v === 'object' && v !== null && !isStringList(v))) return canonicalJson(value);
    if (typeof v === 'number' && !Number.isFinite(v)) return canonicalJson(value);
    out += `${i === 0 ? '' : ','}"${k}":${JSON.stringify(v)}`;
  }
  return `${out}}`;
}

function isStringList(v: object): boolean {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

function unsignedBody(fields: UnsignedContract, key: SigningKey) {
  return {
    schema: DECISION_SCHEMA as typeof DECISION_SCHEMA,
    id: randomUUID(),
    ...fields,
    key_id: key.keyId,
    alg: 'Ed25519' as const,
  };
}

export function issueDecision(fields: UnsignedContract, key: SigningKey): DecisionContract {
  const body = unsignedBody(fields, key);
  const signature = sign(null, Buffer.from(contractCanonicalJson(body)), key.privateKey).toString('base64url');
  return { ...body, signature };
}

// One batch signer per key (core/engine/contract/batch-signer.ts), made on the key's first asynchronous signature.
const signers = new WeakMap<SigningKey, BatchSigner>();

function signerOf(key: SigningKey): BatchSigner {
  let signer = signers.get(key);
  if (!signer) {
    signer = new BatchSigner(key.privateKey);
    signers.set(key, signer);
  }
  return signer;
}

/** Batches and signatures the key's signing worker has had so far (the bench reports signatures per batch). */
export function signerStats(key: SigningKey): BatchSigner['stats'] {
  return signerOf(key).stats;
}

/** Stops the key's signing worker, if it has one (app shutdown). */
export async function closeSigner(key: SigningKey): Promise<void> {
  await signers.get(key)?.close();
  signers.delete(key);
}

/**
 * issueDecision with the Ed25519 signature computed off the event loop, batched per event-loop turn (one signature
 * per decision either way, over the same canonical bytes).
 */
export async function issueDecisionAsync(fields: UnsignedContract, key: SigningKey): Promise<DecisionContract> {
  const body = unsignedBody(fields, key);
  const signature = await signerOf(key).sign(contractCanonicalJson(body));
  return { ...body, signature };
}

/** Checks the signature over the canonical JSON of every other field. */
export function verifyDecision(contract: DecisionContract, publicKey: KeyObject): boolean {
  const { signature, ...body } = contract;
  return verify(null, Buffer.from(contractCanonicalJson(body)), publicKey, Buffer.from(signature, 'base64url'));
}

export function decisionSha256(contract: DecisionContract): string {
  return sha256Hex(contractCanonicalJson(contract));
}

export function expiryFrom(issuedAt: Date, ttlSeconds: number): string {
  return new Date(issuedAt.getTime() + ttlSeconds * 1000).toISOString();
}
