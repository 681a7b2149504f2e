import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { getDomain } from 'tldts';

/** `SITES_DIR/<hostname>/site.json` as DESIGN §7 defines it. Every field optional. */
export interface SiteJson {
  registered_days_ago?: number;
  ip?: string;
  asn?: number;
  hosting_provider?: string;
  cert?: { issued_days_ago?: number; issuer?: string; issuer_org?: string; sans?: string[] };
  ct?: { name: string; issued_days_ago: number; issuer: string }[];
  history?: { captures_days_ago?: number[] };
  redirects?: Record<string, { to: string; status?: number }>;
  headers?: Record<string, string>;
}

export interface LabCert {
  subjectCn: string;
  issuerCn: string;
  issuerOrg?: string;
  sans: string[];
  notBefore: Date;
  notAfter: Date;
  /** Hex, also what the CT search reports, so the two can be joined. */
  serial: string;
  selfSigned: boolean;
}

export interface LabCtEntry {
  id: number;
  commonName: string;
  names: string[];
  issuerCn: string;
  issuerOrg?: string;
  notBefore: Date;
  notAfter: Date;
  serial: string;
}

export interface LabSite {
  hostname: string;
  dir: string;
  ipLiteral: boolean;
  ip: string;
  asn: number;
  hostingProvider: string;
  /** Registrable domain (ICANN section of the PSL), what RDAP answers for. Undefined for IP literals. */
  registeredDomain?: string;
  registeredAt: Date;
  cert: LabCert;
  ct: LabCtEntry[];
  captures: Date[];
  redirects: Record<string, { to: string; status: number }>;
  headers: Record<string, string>;
}

const DAY = 86_400_000;

/** What a site with no site.json looks like: an established, boring site (DESIGN §7). */
export const SITE_DEFAULTS = {
  registeredDaysAgo: 3650,
  certIssuedDaysAgo: 330,
  certIssuer: 'DigiCert Global G2 TLS RSA SHA256 2020 CA1',
  certIssuerOrg: 'DigiCert Inc',
  /** Earlier renewals logged in CT when the cert is defaulted too. */
  priorRenewalsDaysAgo: [695, 1060],
  capturesDaysAgo: [3400, 2600, 1800, 1000, 400, 120, 20],
  asn: 64500,
  hostingProvider: 'Lab Default Hosting',
} as const;

const KNOWN_ISSUER_ORGS: Record<string, string> = {
  R3: "Let's Encrypt",
  R10: "Let's Encrypt",
  R11: "Let's Encrypt",
  E5: "Let's Encrypt",
  E6: "Let's Encrypt",
  WE1: 'Google Trust Services',
  WR1: 'Google Trust Services',
};

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Positive hex serial, stable per input so a lab restart shows the same CT rows and certificates. */
function serialFor(text: string): string {
  const bytes = digest(`serial:${text}`).subarray(0, 16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return bytes.toString('hex');
}

/** A stable documentation-range (RFC 5737) address for sites that do not name one. */
export function defaultIp(hostname: string): string {
  return `203.0.113.${(digest(`ip:${hostname}`).readUInt8(0) % 254) + 1}`;
}

function daysBefore(now: number, days: number): Date {
  return new Date(now - days * DAY);
}

function validityDays(issuedDaysAgo: number): number {
  // Short-lived (90 d) for fresh certs, yet never expired "now" for old ones.
  return issuedDaysAgo < 60 ? 90 : Math.max(398, issuedDaysAgo + 60);
}

function buildCert(hostname: string, ipLiteral: boolean, json: SiteJson, now: number): LabCert {
  const issuedDaysAgo = json.cert?.issued_days_ago ?? SITE_DEFAULTS.certIssuedDaysAgo;
  const defaulted = json.cert === undefined;
  const sans = json.cert?.sans?.length ? json.cert.sans : ipLiteral ? [hostname] : [hostname, `www.${hostname}`];
  const issuerCn = json.cert?.issuer ?? SITE_DEFAULTS.certIssuer;
  const issuerOrg = json.cert?.issuer_org ?? (defaulted ? SITE_DEFAULTS.certIssuerOrg : KNOWN_ISSUER_ORGS[issuerCn]);
  const subjectCn = sans[0] ?? hostname;
  const notBefore = daysBefore(now, issuedDaysAgo);
  return {
    subjectCn,
    issuerCn,
    ...(issuerOrg ? { issuerOrg } : {}),
    sans,
    notBefore,
    notAfter: new Date(notBefore.getTime() + validityDays(issuedDaysAgo) * DAY),
    serial: serialFor(`${hostname}:${issuedDaysAgo}:${issuerCn}`),
    selfSigned: issuerCn === subjectCn,
  };
}

/** The site's CT rows: its `ct` list plus its own certificate (once), plus older renewals for defaulted sites. */
function buildCt(
  hostname: string,
  json: SiteJson,
  cert: LabCert,
  registeredDaysAgo: number,
  now: number,
): LabCtEntry[] {
  const certDaysAgo = Math.round((now - cert.notBefore.getTime()) / DAY);
  const entries: LabCtEntry[] = [];
  let ownCertListed = false;
  for (const entry of json.ct ?? []) {
    const isOwnCert: boolean =
      !ownCertListed && entry.issued_days_ago === certDaysAgo && entry.issuer === cert.issuerCn;
    ownCertListed ||= isOwnCert;
    const notBefore = daysBefore(now, entry.issued_days_ago);
    const issuerOrg = entry.issuer === cert.issuerCn ? cert.issuerOrg : KNOWN_ISSUER_ORGS[entry.issuer];
    entries.push({
      id: 0,
      commonName: entry.name,
      names: isOwnCert && cert.sans.includes(entry.name) ? cert.sans : [entry.name],
      issuerCn: entry.issuer,
      ...(issuerOrg ? { issuerOrg } : {}),
      notBefore,
      notAfter: new Date(notBefore.getTime() + validityDays(entry.issued_days_ago) * DAY),
      serial: isOwnCert
        ? cert.serial
        : serialFor(`${hostname}:ct:${entry.name}:${entry.issued_days_ago}:${entry.issuer}`),
    });
  }
  if (!ownCertListed) {
    entries.push({
      id: 0,
      commonName: cert.subjectCn,
      names: cert.sans,
      issuerCn: cert.issuerCn,
      ...(cert.issuerOrg ? { issuerOrg: cert.issuerOrg } : {}),
      notBefore: cert.notBefore,
      notAfter: cert.notAfter,
      serial: cert.serial,
    });
  }
  if (json.ct === undefined && json.cert === undefined) {
    for (const daysAgo of SITE_DEFAULTS.priorRenewalsDaysAgo.filter((d) => d <= registeredDaysAgo)) {
      const notBefore = daysBefore(now, daysAgo);
      entries.push({
        id: 0,
        commonName: cert.subjectCn,
        names: cert.sans,
        issuerCn: cert.issuerCn,
        ...(cert.issuerOrg ? { issuerOrg: cert.issuerOrg } : {}),
        notBefore,
        notAfter: new Date(notBefore.getTime() + 398 * DAY),
        serial: serialFor(`${hostname}:renewal:${daysAgo}`),
      });
    }
  }
  return entries;
}

export function buildSite(hostname: string, dir: string, json: SiteJson, now: number): LabSite {
  const ipLiteral = isIP(hostname) !== 0;
  const registeredDaysAgo = json.registered_days_ago ?? SITE_DEFAULTS.registeredDaysAgo;
  const cert = buildCert(hostname, ipLiteral, json, now);
  const capturesDaysAgo =
    json.history?.captures_days_ago ?? SITE_DEFAULTS.capturesDaysAgo.filter((d) => d <= registeredDaysAgo);
  const registeredDomain = ipLiteral ? undefined : (getDomain(hostname) ?? hostname);
  const redirects: LabSite['redirects'] = {};
  for (const [path, redirect] of Object.entries(json.redirects ?? {})) {
    redirects[path] = { to: redirect.to, status: redirect.status ?? 302 };
  }
  return {
    hostname,
    dir,
    ipLiteral,
    ip: json.ip ?? (ipLiteral ? hostname : defaultIp(hostname)),
    asn: json.asn ?? SITE_DEFAULTS.asn,
    hostingProvider: json.hosting_provider ?? SITE_DEFAULTS.hostingProvider,
    ...(registeredDomain ? { registeredDomain } : {}),
    registeredAt: daysBefore(now, registeredDaysAgo),
    cert,
    ct: buildCt(hostname, json, cert, registeredDaysAgo, now),
    captures: capturesDaysAgo.map((d) => daysBefore(now, d)).sort((a, b) => a.getTime() - b.getTime()),
    redirects,
    headers: Object.fromEntries(Object.entries(json.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
  };
}

/** Every folder of `sitesDir` is a site named after its folder (lowercased). */
export async function loadSites(sitesDir: string, now: number): Promise<LabSite[]> {
  const names = (await readdir(sitesDir)).sort();
  const sites: LabSite[] = [];
  const defaulted = new Set<LabSite>();
  let nextCtId = 7_000_000_000;
  for (const name of names) {
    const dir = join(resolve(sitesDir), name);
    if (!(await stat(dir)).isDirectory() || name.startsWith('.')) continue;
    let json: SiteJson = {};
    try {
      json = JSON.parse(await readFile(join(dir, 'site.json'), 'utf8')) as SiteJson;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        throw new Error(`${join(dir, 'site.json')}: ${(err as Error).message}`);
    }
    const site = buildSite(name.toLowerCase(), dir, json, now);
    for (const entry of site.ct) entry.id = nextCtId++;
    sites.push(site);
    if (json.ip === undefined && !site.ipLiteral) defaulted.add(site);
  }
  // A defaulted address must not land on one another site declared: host intel would then describe this site's
  // host as that site's (and the other way round). Step to the next free address of the documentation range.
  const declared = new Set(sites.filter((s) => !defaulted.has(s)).map((s) => s.ip));
  for (const site of defaulted) {
    let octet = Number(site.ip.split('.')[3]);
    for (let tries = 0; declared.has(site.ip) && tries < 254; tries++) {
      octet = (octet % 254) + 1;
      site.ip = `203.0.113.${octet}`;
    }
  }
  return sites;
}
