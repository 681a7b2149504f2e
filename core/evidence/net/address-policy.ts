import ipaddr from 'ipaddr.js';

export interface AddressVerdict {
  allowed: boolean;
  /** ipaddr.js range name (`loopback`, `private`, …), `metadata`, `invalid`, or `unicast` when allowed. */
  reason: string;
  /** The canonical spelling that was judged (after WHATWG normalisation and unwrapping embedded IPv4). */
  address?: string;
}

/** Cloud metadata services. Most already fall in a refused range; listed so the reason names them. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200', '169.254.170.2']);

/** IPv6 ranges that carry an IPv4 address inside: judge the embedded address, not the wrapper. */
const EMBEDDING_V6_RANGES = new Set(['ipv4Mapped', 'rfc6145', 'rfc6052', '6to4']);

/**
 * Canonical IP text for any spelling a URL parser or a resolver might hand us: decimal/octal/hex/short IPv4
 * (WHATWG's host parser canonicalises those), bracketed IPv6, zone ids and trailing dots.
 * Returns undefined when the input is not an IP literal.
 */
export function canonicalIp(input: string): string | undefined {
  let text = input.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const zone = text.indexOf('%');
  if (zone !== -1 && text.includes(':')) text = text.slice(0, zone);
  if (text.includes(':')) {
    // WHATWG's serialisation, not ipaddr.js's: ipaddr.js reads `::a.b.c.d` as IPv4-mapped, the URL parser does not.
    let host: string;
    try {
      host = new URL(`http://[${text}]/`).hostname.slice(1, -1);
    } catch {
      return undefined;
    }
    return ipaddr.IPv6.isValid(host) ? host : undefined;
  }
  let host: string;
  try {
    host = new URL(`http://${text}/`).hostname;
  } catch {
    return undefined;
  }
  return ipaddr.IPv4.isValidFourPartDecimal(host) ? host : undefined;
}

function embeddedIpv4(address: ipaddr.IPv6, range: string): ipaddr.IPv4 | undefined {
  const bytes = address.toByteArray();
  if (range === '6to4') return new ipaddr.IPv4(bytes.slice(2, 6));
  // RFC 8215 local-use NAT64 (64:ff9b:1::/48) can embed at several offsets; it is never a public target.
  if (range === 'rfc6052' && address.parts[2] !== 0) return undefined;
  return new ipaddr.IPv4(bytes.slice(12, 16));
}

function judgeIpv4(address: ipaddr.IPv4): AddressVerdict {
  const text = address.toString();
  if (METADATA_ADDRESSES.has(text)) return { allowed: false, reason: 'metadata', address: text };
  const range = address.range();
  return { allowed: range === 'unicast', reason: range, address: text };
}

/** Decide whether the scanner may open a connection to this IP address. Anything not plain global unicast is refused. */
export function checkAddress(ip: string): AddressVerdict {
  const canonical = canonicalIp(ip);
  if (!canonical) return { allowed: false, reason: 'invalid' };
  const parsed = ipaddr.parse(canonical);
  if (parsed.kind() === 'ipv4') return judgeIpv4(parsed as ipaddr.IPv4);

  const v6 = parsed as ipaddr.IPv6;
  if (METADATA_ADDRESSES.has(canonical)) return { allowed: false, reason: 'metadata', address: canonical };
  const range = v6.range();
  if (EMBEDDING_V6_RANGES.has(range)) {
    const inner = embeddedIpv4(v6, range);
    if (!inner) return { allowed: false, reason: range, address: canonical };
    const verdict = judgeIpv4(inner);
    return verdict.allowed ? { ...verdict, address: canonical } : { ...verdict, reason: `${range}:${verdict.reason}` };
  }
  // IPv4-compatible (::a.b.c.d, deprecated) is not a range ipaddr.js names; it reads as unicast otherwise.
  if (range === 'unicast' && v6.parts.slice(0, 6).every((part) => part === 0)) {
    const verdict = judgeIpv4(new ipaddr.IPv4(v6.toByteArray().slice(12, 16)));
    return { allowed: false, reason: `ipv4Compatible:${verdict.reason}`, address: canonical };
  }
  // Only global unicast (2000::/3) is reachable on the public internet.
  const globalUnicast = (v6.parts[0]! & 0xe000) === 0x2000;
  if (range !== 'unicast' || !globalUnicast) {
    return { allowed: false, reason: range === 'unicast' ? 'notGlobalUnicast' : range, address: canonical };
  }
  return { allowed: true, reason: 'unicast', address: canonical };
}

/** Names that resolve to the local machine by convention (RFC 6761) whatever DNS says. */
export function isLocalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || name === 'localhost.localdomain';
}
