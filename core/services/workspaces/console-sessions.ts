// Web-console sessions. The browser holds an opaque token in an HttpOnly, SameSite=Strict cookie (no script can
// read it); the server keeps its sha256 and the admin key it stands for. Requests that change something must also
// carry the session's CSRF token in a header.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import { authenticatePrefix, type Principal } from './api-keys.ts';

export const SESSION_COOKIE = 'pf_session';
export const SESSION_HOURS = 8;
const TOKEN_PATTERN = /^pfs_[A-Za-z0-9_-]{43}$/;

const sha256 = (s: string) => createHash('sha256').update(s).digest();

export interface OpenedSession {
  token: string;
  csrfToken: string;
  expiresAt: Date;
}

export async function openSession(knex: Knex, principal: Principal): Promise<OpenedSession> {
  const token = `pfs_${randomBytes(32).toString('base64url')}`;
  const csrfToken = randomBytes(24).toString('base64url');
  const expiresAt = new Date(Date.now() + SESSION_HOURS * 3600_000);
  await knex('console_sessions').insert({
    id: randomUUID(),
    token_sha256: sha256(token),
    key_id: principal.keyId,
    csrf_token: csrfToken,
    expires_at: expiresAt,
  });
  return { token, csrfToken, expiresAt };
}

export interface SessionCheck {
  principal: Principal;
  csrfToken: string;
}

/** The principal behind a live session: not expired, and its key neither revoked nor gone. */
export async function authenticateSession(knex: Knex, token: string): Promise<SessionCheck | undefined> {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  const row = await knex('console_sessions as s')
    .join('api_keys as k', 'k.id', 's.key_id')
    .where('s.token_sha256', sha256(token))
    .andWhere('s.expires_at', '>', knex.fn.now())
    .first<{ prefix: string; csrf_token: string } | undefined>('k.prefix', 's.csrf_token');
  if (!row) return undefined;
  const check = await authenticatePrefix(knex, row.prefix);
  if (!check.ok) return undefined;
  return { principal: check.principal, csrfToken: row.csrf_token };
}

export async function closeSession(knex: Knex, token: string): Promise<void> {
  if (TOKEN_PATTERN.test(token)) await knex('console_sessions').where('token_sha256', sha256(token)).delete();
}

export function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
