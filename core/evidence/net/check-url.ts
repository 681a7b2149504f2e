import { canonicalIp, checkAddress, isLocalName } from './address-policy.ts';
import { normaliseHost } from './guarded-target.ts';

export interface UrlVerdict {
  allowed: boolean;
  reason: string;
  /** WHATWG-normalised URL when it parsed. */
  url?: URL;
}

/**
 * Cheap early refusal before any I/O (scheme, IP literals, local names). Not sufficient on its own: names are
 * checked after resolution by the guarded connector, which is the enforcement point.
 */
export function checkUrl(input: string | URL, allowEndpoints: readonly string[] = []): UrlVerdict {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { allowed: false, reason: 'invalid_url' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { allowed: false, reason: 'scheme', url };
  const host = normaliseHost(url.hostname);
  if (isLocalName(host)) return { allowed: false, reason: 'local_name', url };
  const literal = canonicalIp(host);
  if (!literal) return { allowed: true, reason: 'name', url };
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const key = literal.includes(':') ? `[${literal}]:${port}` : `${literal}:${port}`;
  if (allowEndpoints.includes(key)) return { allowed: true, reason: 'allowed_endpoint', url };
  const verdict = checkAddress(literal);
  return { allowed: verdict.allowed, reason: verdict.reason, url };
}
