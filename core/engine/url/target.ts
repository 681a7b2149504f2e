import { domainToUnicode } from 'node:url';
import { parse } from 'tldts';

/** A destination as every URL detector sees it: parsed once, the same way everywhere. */
export interface Target {
  url: URL;
  /** Lower-case hostname without brackets or trailing dot. */
  host: string;
  /** Unicode form of a punycode host (equal to `host` otherwise). */
  unicodeHost: string;
  isIp: boolean;
  /** ICANN registrable domain (`example.co.uk`), ignoring private suffixes; undefined for IPs and bare names. */
  registrableDomain?: string;
  /**
   * The identity that owns the content: the registrable domain counting private suffixes, so a tenant of a
   * shared platform (`tenant.vercel.app`) is its own site and the platform (`vercel.app`) is not blamed for it.
   */
  site: string;
  /** Set when the host sits on a private (multi-tenant) public suffix such as `vercel.app`. */
  privateSuffix?: string;
  /** Labels left of the registrable domain (`login.secure` for `login.secure.example.com`). */
  subdomain: string;
  /** `user[:pass]@` present in the URL: the part before `@` is what a reader takes for the host. */
  userinfo?: string;
}

export class TargetError extends Error {}

/** Accepts a URL, or a bare host (`example.com`, `example.com/path`) read as https. */
export function parseTarget(input: string): Target {
  const trimmed = input.trim();
  if (trimmed.length === 0 || trimmed.length > 4096) throw new TargetError('url must be a non-empty URL');
  // `host:8080/path` has no scheme; `javascript:…` and `mailto:…` do (and are refused below).
  const hasScheme = /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(trimmed);
  const withScheme = hasScheme ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new TargetError(`url is not a valid URL: ${JSON.stringify(trimmed.slice(0, 200))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TargetError(`url must be http or https (got ${url.protocol.replace(':', '')})`);
  }
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (!host) throw new TargetError('url has no host');
  const icann = parse(host, { allowPrivateDomains: false });
  const withPrivate = parse(host, { allowPrivateDomains: true });
  const isIp = Boolean(icann.isIp);
  const registrableDomain = icann.domain ?? undefined;
  const site = withPrivate.domain ?? registrableDomain ?? host;
  // `%ff` and other broken escapes are kept as sent: a malformed userinfo is evidence, not a reason to fail.
  const userinfo = url.username || url.password ? decodeLeniently(url.username) : undefined;
  return {
    url,
    host,
    unicodeHost: host.includes('xn--') ? domainToUnicode(host) || host : host,
    isIp,
    registrableDomain,
    site,
    privateSuffix: withPrivate.isPrivate && withPrivate.publicSuffix ? withPrivate.publicSuffix : undefined,
    subdomain: (withPrivate.subdomain ?? '') || '',
    userinfo,
  };
}

function decodeLeniently(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
