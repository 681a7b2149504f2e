import { inject, injectable } from 'tsyringe';
import { BrowserCapturer, degradedCapture } from '../browser/browser-capture.ts';
import {
  CtClient,
  type DnsReport,
  DnsResolver,
  HistoryClient,
  HostIntelClient,
  HttpFetcher,
  RdapClient,
  TlsInspector,
} from '../sources/index.ts';
import type { Lookup } from '../sources/lookup.ts';
import type { Target } from '../url/target.ts';
import type { ScanEvidence } from './evidence.ts';
import { followOneHop } from './one-hop-follow.ts';

const notApplicable = { ok: false as const, reason: 'not_applicable' as const };

/** Gathers every source's facts about a target in parallel, each under its own client's budget. */
@injectable()
export class EvidenceCollector {
  /** Told of every collected evidence set (metrics count failed sources); must not throw. */
  readonly observers: ((evidence: ScanEvidence) => void)[] = [];

  constructor(
    @inject(DnsResolver) private readonly dns: DnsResolver,
    @inject(RdapClient) private readonly rdap: RdapClient,
    @inject(TlsInspector) private readonly tls: TlsInspector,
    @inject(HttpFetcher) private readonly http: HttpFetcher,
    @inject(CtClient) private readonly ct: CtClient,
    @inject(HistoryClient) private readonly history: HistoryClient,
    @inject(HostIntelClient) private readonly hostIntel: HostIntelClient,
    @inject(BrowserCapturer) private readonly browser: BrowserCapturer,
  ) {}

  async collect(target: Target, options: { browser: boolean; signal?: AbortSignal }): Promise<ScanEvidence> {
    const timings: Record<string, number> = {};
    const timed = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
      const started = performance.now();
      try {
        return await work();
      } finally {
        timings[name] = Math.round(performance.now() - started);
      }
    };
    const { host, url } = target;
    const signal = options.signal;
    const port = url.port ? Number(url.port) : 443;

    const [dns, rdap, tls, page, ct, history, browser] = await Promise.all([
      timed('dns', () =>
        target.isIp
          ? Promise.resolve<DnsReport>({ name: host, records: {}, failures: {} })
          : this.dns.resolveAll(host, { signal }),
      ),
      timed('rdap', () => (target.isIp ? Promise.resolve(notApplicable) : this.rdap.lookupDomain(host, { signal }))),
      timed('tls', () => this.tls.inspect(host, { signal, port: url.protocol === 'https:' ? port : 443 })),
      timed('http', () => this.http.fetchPage(url.href, { signal, favicon: true })),
      timed('ct', () => (target.isIp ? Promise.resolve(notApplicable) : this.ct.search(host, { signal }))),
      timed('history', () => this.history.captures(host, { signal })),
      timed('browser', () =>
        options.browser
          ? this.browser.capture(url.href, { signal })
          : Promise.resolve(degradedCapture('browser capture not requested')),
      ),
    ]);
    const addresses = target.isIp ? [host] : [...(dns.records.A ?? []), ...(dns.records.AAAA ?? [])];
    // Host intel needs the addresses; the one-hop follow needs the page as the browser left it (its DOM may hold a
    // call to action the served HTML builds with script). Both run after the parallel sources, side by side.
    const [hostIntel, follow] = await Promise.all([
      timed('hostintel', () =>
        addresses[0]
          ? this.hostIntel.lookup(addresses[0], { signal })
          : Promise.resolve({ ...(notApplicable as Lookup<never>), queried_vendor: false, vendor: 'none' }),
      ),
      timed('follow', () => followOneHop(this.http, { page, browser }, { signal })),
    ]);
    const evidence: ScanEvidence = {
      target,
      collected_at: new Date().toISOString(),
      dns,
      addresses,
      rdap,
      tls,
      page,
      ct,
      history,
      hostIntel,
      browser,
      follow,
      timings,
    };
    for (const observe of this.observers) observe(evidence);
    return evidence;
  }
}
