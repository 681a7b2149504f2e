import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { canonicalIp, checkAddress, isLocalName } from './address-policy.ts';
import { SsrfError } from './ssrf-error.ts';

export type ResolveHost = (hostname: string, signal?: AbortSignal) => Promise<string[]>;

export interface GuardOptions {
  /**
   * `host:port` → `ip:port`, like curl's --connect-to. Operator configuration (the lab), so its targets are trusted
   * and skip DNS: this is how lab mode reaches sites on loopback and nothing else on loopback.
   */
  connectTo?: Readonly<Record<string, string>>;
  /** `ip:port` endpoints allowed even though their address is refused, e.g. the lab's own API servers. */
  allowEndpoints?: readonly string[];
  /** Every address of a name; defaults to the OS resolver. In lab mode, the lab DNS. */
  resolveHost?: ResolveHost;
}

export interface GuardedTarget {
  /** What the caller asked for, normalised (lowercase, no brackets, no trailing dot). */
  host: string;
  /** The checked address the socket must connect to. */
  address: string;
  port: number;
  via: 'connect-to' | 'literal' | 'dns' | 'allowed-endpoint';
}

export function normaliseHost(hostname: string): string {
  let host = hostname.trim().toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return host.replace(/\.+$/, '');
}

export function endpointKey(host: string, port: number): string {
  return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
}

function parseEndpoint(endpoint: string): { address: string; port: number } {
  const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(endpoint);
  if (!match) throw new Error(`bad endpoint "${endpoint}", expected ip:port`);
  return { address: match[1]!, port: Number(match[2]) };
}

const defaultResolveHost: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Resolve once and check every address; the caller connects to `address` and nothing else, so a second DNS answer
 * (rebinding) never reaches a socket.
 */
export async function resolveGuardedTarget(
  hostname: string,
  port: number,
  options: GuardOptions,
  signal?: AbortSignal,
): Promise<GuardedTarget> {
  const host = normaliseHost(hostname);
  const mapped = options.connectTo?.[endpointKey(host, port)];
  if (mapped) return { host, ...parseEndpoint(mapped), via: 'connect-to' };

  const allowed = new Set(options.allowEndpoints ?? []);
  const literal = canonicalIp(host);
  if (literal) {
    if (allowed.has(endpointKey(literal, port))) return { host, address: literal, port, via: 'allowed-endpoint' };
    const verdict = checkAddress(literal);
    if (!verdict.allowed) throw new SsrfError(host, verdict.reason, literal);
    return { host, address: literal, port, via: 'literal' };
  }
  if (isLocalName(host)) throw new SsrfError(host, 'local_name');

  const addresses = await (options.resolveHost ?? defaultResolveHost)(host, signal);
  if (addresses.length === 0) throw Object.assign(new Error(`no addresses for ${host}`), { code: 'ENOTFOUND' });
  // One bad address refuses the whole name: an attacker controls the order and the resolver's choice.
  for (const address of addresses) {
    if (allowed.has(endpointKey(canonicalIp(address) ?? address, port))) continue;
    const verdict = checkAddress(address);
    if (!verdict.allowed) throw new SsrfError(host, verdict.reason, address);
  }
  const address = canonicalIp(addresses[0]!) ?? addresses[0]!;
  return { host, address, port, via: allowed.has(endpointKey(address, port)) ? 'allowed-endpoint' : 'dns' };
}
