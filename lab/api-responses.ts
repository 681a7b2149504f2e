import { createHash } from 'node:crypto';
import type { LabCtEntry, LabSite } from './site-model.ts';

/** JSON bodies of the lab's look-alike APIs, built from the site folder. Pure functions: easy to read and test. */

const DAY = 86_400_000;

export interface ApiAnswer {
  status: number;
  body: unknown;
  contentType?: string;
}

/** RFC 9083 domain object. RDAP knows registered domains, so a site under a platform answers as the platform. */
export function rdapDomain(sites: readonly LabSite[], name: string, now: number): ApiAnswer {
  const domain = name.toLowerCase().replace(/\.+$/, '');
  // The oldest registration wins when several sites share a registered domain (the platform's age).
  const owner = sites
    .filter((site) => site.registeredDomain === domain || (!site.ipLiteral && site.hostname === domain))
    .sort((a, b) => a.registeredAt.getTime() - b.registeredAt.getTime())[0];
  const contentType = 'application/rdap+json';
  if (!owner) {
    return {
      status: 404,
      contentType,
      body: {
        rdapConformance: ['rdap_level_0'],
        errorCode: 404,
        title: 'Not Found',
        description: [`${domain} is not registered`],
      },
    };
  }
  const registered = owner.registeredAt.getTime();
  const years = Math.floor((now - registered) / (365 * DAY)) + 1;
  const lastChanged = Math.max(registered, now - 30 * DAY);
  return {
    status: 200,
    contentType,
    body: {
      rdapConformance: ['rdap_level_0', 'icann_rdap_response_profile_0', 'icann_rdap_technical_implementation_guide_0'],
      objectClassName: 'domain',
      handle: `${createHash('sha1').update(domain).digest('hex').slice(0, 12).toUpperCase()}_DOMAIN-LAB`,
      ldhName: domain.toUpperCase(),
      status: ['client transfer prohibited'],
      events: [
        { eventAction: 'registration', eventDate: new Date(registered).toISOString() },
        { eventAction: 'expiration', eventDate: new Date(registered + years * 365 * DAY).toISOString() },
        { eventAction: 'last changed', eventDate: new Date(lastChanged).toISOString() },
        { eventAction: 'last update of RDAP database', eventDate: new Date(now).toISOString() },
      ],
      entities: [
        {
          objectClassName: 'entity',
          handle: '9999',
          roles: ['registrar'],
          publicIds: [{ type: 'IANA Registrar ID', identifier: '9999' }],
          vcardArray: [
            'vcard',
            [
              ['version', {}, 'text', '4.0'],
              ['fn', {}, 'text', 'Preflight Lab Registrar, Inc.'],
            ],
          ],
        },
      ],
      nameservers: [`NS1.${domain}`, `NS2.${domain}`].map((ns) => ({
        objectClassName: 'nameserver',
        ldhName: ns.toUpperCase(),
      })),
      secureDNS: { delegationSigned: false },
      notices: [{ title: 'Lab', description: ['Served by the Preflight lab from a site folder.'] }],
    },
  };
}

/** crt.sh writes UTC timestamps without a zone and without milliseconds on notBefore/notAfter. */
function crtShTime(date: Date, withMillis = false): string {
  const iso = date.toISOString().replace('Z', '');
  return withMillis ? iso : iso.slice(0, 19);
}

function issuerName(entry: LabCtEntry): string {
  return entry.issuerOrg ? `C=US, O=${entry.issuerOrg}, CN=${entry.issuerCn}` : `CN=${entry.issuerCn}`;
}

/** crt.sh `?q=NAME&output=json`: the site's rows by site name, plus rows naming the query; `%.x` = subdomains of x. */
export function crtShSearch(sites: readonly LabSite[], query: string): ApiAnswer {
  const q = query.toLowerCase().replace(/\.+$/, '');
  const wildcardSuffix = q.startsWith('%.') ? q.slice(1) : undefined;
  const matchesName = (name: string) => (wildcardSuffix ? name.endsWith(wildcardSuffix) : name === q);
  const rows = new Map<number, LabCtEntry>();
  for (const site of sites) {
    const siteMatches = matchesName(site.hostname);
    for (const entry of site.ct) {
      if (siteMatches || entry.names.some((name) => matchesName(name.toLowerCase()))) rows.set(entry.id, entry);
    }
  }
  const body = [...rows.values()]
    .sort((a, b) => b.id - a.id)
    .map((entry) => ({
      issuer_ca_id: Number.parseInt(createHash('sha1').update(issuerName(entry)).digest('hex').slice(0, 5), 16),
      issuer_name: issuerName(entry),
      common_name: entry.commonName,
      name_value: entry.names.join('\n'),
      id: entry.id,
      entry_timestamp: crtShTime(new Date(entry.notBefore.getTime() + 60_000), true),
      not_before: crtShTime(entry.notBefore),
      not_after: crtShTime(entry.notAfter),
      serial_number: entry.serial,
      result_count: entry.names.length + 1,
    }));
  return { status: 200, body };
}

function cdxTimestamp(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/** SURT-style key the CDX server sorts by: `com,example)/`. */
function urlKey(host: string): string {
  return `${host.split('.').reverse().join(',')})/`;
}

function hostOfCdxUrl(url: string): string {
  const withoutScheme = url.replace(/^[a-z]+:\/\//i, '');
  return withoutScheme
    .split(/[/?#*]/)[0]!
    .toLowerCase()
    .replace(/^www\./, '')
    .replace(/\.+$/, '');
}

const CDX_FIELDS = ['urlkey', 'timestamp', 'original', 'mimetype', 'statuscode', 'digest', 'length'] as const;

/** Wayback CDX `/cdx/search/cdx?url=…`: header row first in JSON output, `[]` when nothing was captured. */
export function cdxSearch(sites: readonly LabSite[], params: URLSearchParams): ApiAnswer {
  const host = hostOfCdxUrl(params.get('url') ?? '');
  const site = sites.find((s) => s.hostname === host);
  const fields = (params.get('fl')?.split(',') ?? [...CDX_FIELDS]).filter((f) =>
    (CDX_FIELDS as readonly string[]).includes(f),
  );
  let rows = (site?.captures ?? []).map((date) => {
    const digest = createHash('sha1').update(`${host}:${date.toISOString()}`).digest('hex').slice(0, 32).toUpperCase();
    const full: Record<string, string> = {
      urlkey: urlKey(host),
      timestamp: cdxTimestamp(date),
      original: `https://${host}/`,
      mimetype: 'text/html',
      statuscode: '200',
      digest,
      length: String(2000 + (Number.parseInt(digest.slice(0, 3), 16) % 5000)),
    };
    return fields.map((f) => full[f]!);
  });
  const limit = Number(params.get('limit') ?? Number.NaN);
  if (Number.isInteger(limit) && limit !== 0) rows = limit > 0 ? rows.slice(0, limit) : rows.slice(limit);
  if (params.get('output') !== 'json') {
    return { status: 200, contentType: 'text/plain', body: rows.map((row) => `${row.join(' ')}\n`).join('') };
  }
  return { status: 200, body: rows.length === 0 ? [] : [fields, ...rows] };
}

function ipToInt(ip: string): number | undefined {
  const parts = ip.split('.').map(Number);
  return parts.length === 4 ? parts.reduce((acc, part) => acc * 256 + part, 0) : undefined;
}

/** Shodan `/shodan/host/{ip}?key=…`: the sites on that IP, with `hosting_provider` as org/isp. */
export function shodanHost(sites: readonly LabSite[], ip: string, key: string | null, now: number): ApiAnswer {
  if (!key) return { status: 401, body: { error: 'Please provide a valid API key.' } };
  const onIp = sites.filter((site) => site.ip === ip);
  const first = onIp[0];
  if (!first) return { status: 404, body: { error: 'No information available for that IP.' } };
  const hostnames = onIp
    .filter((s) => !s.ipLiteral)
    .map((s) => s.hostname)
    .sort();
  const domains = [...new Set(onIp.flatMap((s) => (s.registeredDomain ? [s.registeredDomain] : [])))].sort();
  const lastUpdate = new Date(now - DAY).toISOString().replace('Z', '');
  const server = first.headers.server ?? 'nginx';
  const banner = (port: number, module: string) => ({
    port,
    transport: 'tcp',
    product: server,
    ip_str: ip,
    hostnames,
    org: first.hostingProvider,
    isp: first.hostingProvider,
    asn: `AS${first.asn}`,
    timestamp: lastUpdate,
    _shodan: { module, crawler: 'lab' },
    http: { server, status: 200 },
  });
  return {
    status: 200,
    body: {
      ip_str: ip,
      ...(ipToInt(ip) === undefined ? {} : { ip: ipToInt(ip) }),
      org: first.hostingProvider,
      isp: first.hostingProvider,
      asn: `AS${first.asn}`,
      hostnames,
      domains,
      ports: [80, 443],
      country_code: 'US',
      country_name: 'United States',
      last_update: lastUpdate,
      tags: [],
      vulns: [],
      data: [banner(80, 'http'), banner(443, 'https')],
    },
  };
}
