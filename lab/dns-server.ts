import dgram from 'node:dgram';
import { isIP } from 'node:net';
import dnsPacket from 'dns-packet';
import type { LabSite } from './site-model.ts';

interface Zone {
  A: string[];
  AAAA: string[];
  CNAME?: string;
  NS: string[];
  MX: { preference: number; exchange: string }[];
  TXT: string[];
}

const RCODE_NXDOMAIN = 3;
const TTL = 300;

/** Every site name answers; `www.<site>` is a CNAME to the site. IP-literal sites have no DNS name. */
export function buildZones(sites: readonly LabSite[]): Map<string, Zone> {
  const zones = new Map<string, Zone>();
  for (const site of sites) {
    if (site.ipLiteral) continue;
    const apex = site.registeredDomain ?? site.hostname;
    zones.set(site.hostname, {
      A: isIP(site.ip) === 4 ? [site.ip] : [],
      AAAA: isIP(site.ip) === 6 ? [site.ip] : [],
      NS: [`ns1.${apex}`, `ns2.${apex}`],
      MX: [{ preference: 10, exchange: `mx.${apex}` }],
      TXT: ['v=spf1 -all'],
    });
  }
  for (const site of sites) {
    const alias = `www.${site.hostname}`;
    if (site.ipLiteral || site.hostname.startsWith('www.') || zones.has(alias)) continue;
    zones.set(alias, { A: [], AAAA: [], CNAME: site.hostname, NS: [], MX: [], TXT: [] });
  }
  return zones;
}

function answersFor(zones: Map<string, Zone>, name: string, type: string): dnsPacket.Answer[] | undefined {
  const zone = zones.get(name);
  if (!zone) return undefined;
  const answers: dnsPacket.Answer[] = [];
  if (zone.CNAME) {
    answers.push({ type: 'CNAME', name, ttl: TTL, data: zone.CNAME });
    if (type === 'CNAME') return answers;
    return [...answers, ...(answersFor(zones, zone.CNAME, type) ?? [])];
  }
  switch (type) {
    case 'A':
      for (const data of zone.A) answers.push({ type: 'A', name, ttl: TTL, data });
      break;
    case 'AAAA':
      for (const data of zone.AAAA) answers.push({ type: 'AAAA', name, ttl: TTL, data });
      break;
    case 'NS':
      for (const data of zone.NS) answers.push({ type: 'NS', name, ttl: TTL, data });
      break;
    case 'MX':
      for (const data of zone.MX) answers.push({ type: 'MX', name, ttl: TTL, data });
      break;
    case 'TXT':
      for (const data of zone.TXT) answers.push({ type: 'TXT', name, ttl: TTL, data });
      break;
  }
  return answers;
}

export function answerQuery(zones: Map<string, Zone>, query: dnsPacket.Packet): Buffer {
  const question = query.questions?.[0];
  const name = question?.name.toLowerCase().replace(/\.+$/, '') ?? '';
  const answers = question ? answersFor(zones, name, question.type) : undefined;
  const flags =
    dnsPacket.AUTHORITATIVE_ANSWER |
    ((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED) |
    (answers ? 0 : RCODE_NXDOMAIN);
  return dnsPacket.encode({
    type: 'response',
    id: query.id ?? 0,
    flags,
    questions: query.questions ?? [],
    answers: answers ?? [],
  });
}

export interface DnsServer {
  endpoint: string;
  close(): Promise<void>;
}

export async function startDnsServer(sites: readonly LabSite[], host: string): Promise<DnsServer> {
  const zones = buildZones(sites);
  const socket = dgram.createSocket(isIP(host) === 6 ? 'udp6' : 'udp4');
  socket.on('message', (message, peer) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return; // Not DNS: a real server drops it too.
    }
    socket.send(answerQuery(zones, query), peer.port, peer.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, host, () => resolve());
  });
  return {
    endpoint: `${host}:${socket.address().port}`,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
