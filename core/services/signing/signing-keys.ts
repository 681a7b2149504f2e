import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { Knex } from 'knex';
import type { InjectionToken } from 'tsyringe';
import { sha256Hex } from '../../engine/contract/canonical-json.ts';

export interface SigningKey {
  keyId: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  publicKeyPem: string;
}

export const SigningKey: InjectionToken<SigningKey> = Symbol('SigningKey');

/**
 * The Ed25519 key that signs decision contracts. Made on first start and kept in the database, so every API
 * process of a deployment signs with the same key and a restart keeps verifiers working.
 */
export async function loadOrCreateSigningKey(knex: Knex): Promise<SigningKey> {
  const existing = await knex('signing_keys').where({ active: true }).orderBy('created_at', 'desc').first();
  if (existing) return fromPem(existing.key_id, existing.private_key_pem);

  const { privateKey } = generateKeyPairSync('ed25519');
  const privatePem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  const publicPem = createPublicKey(privateKey).export({ format: 'pem', type: 'spki' }).toString();
  const keyId = `ed25519-${sha256Hex(publicPem).slice(0, 16)}`;
  // Two processes starting at once may both generate; the first insert wins and both use it.
  await knex('signing_keys')
    .insert({ key_id: keyId, algorithm: 'Ed25519', public_key_pem: publicPem, private_key_pem: privatePem })
    .onConflict('key_id')
    .ignore();
  const winner = await knex('signing_keys').where({ active: true }).orderBy('created_at').first();
  return fromPem(winner.key_id, winner.private_key_pem);
}

export async function listPublicKeys(knex: Knex) {
  const rows = await knex('signing_keys').select('key_id', 'algorithm', 'public_key_pem', 'active', 'created_at');
  return rows.map((r) => ({
    key_id: r.key_id as string,
    alg: r.algorithm as string,
    active: r.active as boolean,
    public_key_pem: r.public_key_pem as string,
    public_key_jwk: createPublicKey(r.public_key_pem).export({ format: 'jwk' }),
    created_at: new Date(r.created_at).toISOString(),
  }));
}

function fromPem(keyId: string, privatePem: string): SigningKey {
  const privateKey = createPrivateKey(privatePem);
  const publicKey = createPublicKey(privateKey);
  return { keyId, privateKey, publicKey, publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString() };
}
