import { inject, injectable } from 'tsyringe';
import type { Target } from '../../engine/url/target.ts';
import { BrowserCapturer, degradedCapture } from '../../evidence/browser/browser-capture.ts';
import {
  CtClient,
  type DnsReport,
  DnsResolver,
  HistoryClient,
  HostIntelClient,
  HttpFetcher,
  RdapClient,
  TlsInspector,
} from '../../evidence/sources/index.ts';
import type { Lookup } from '../../evidence/sources/lookup.ts';
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

    const addressesOf = (dns: DnsReport) =>
      target.isIp ? [host] : [...(dns.records.A ?? []), ...(dns.records.AAAA ?? [])];
    const dnsP = timed('dns', () =>
      target.isIp
        ? Promise.resolve<DnsReport>({ name: host, records: {}, failures: {} })
        : this.dns.resolveAll(host, { signal }),
    );
    const pageP = timed('http', () => this.http.fetchPage(url.href, { signal, favicon: true }));
    const browserP = timed('browser', () =>
      options.browser
        ? this.browser.capture(url.href, { signal })
        : Promise.resolve(degradedCapture('browser capture not requested')),
    );
    // Host intel needs only the addresses, and the one-hop follow only the page as the browser left it (its DOM may
    // hold a call to action the served HTML builds with script): each starts as soon as its input is there, while
    // the slower sources (RDAP, CT, history) are still running.
    const hostIntelP = dnsP.then((dns) => {
      const first = addressesOf(dns)[0];
      return timed('hostintel', () =>
        first
          ? this.hostIntel.lookup(first, { signal })
          : Promise.resolve({ ...(notApplicable as Lookup<never>), queried_vendor: false, vendor: 'none' }),
      );
    });
    const followP = Promise.all([pageP, browserP]).then(([page, browser]) =>
      timed('follow', () => followOneHop(this.http, { page, browser }, { signal })),
    );
    const [dns, rdap, tls, page, ct, history, browser, hostIntel, follow] = await Promise.all([
      dnsP,
      timed('rdap', () => (target.isIp ? Promise.resolve(notApplicable) : this.rdap.lookupDomain(host, { signal }))),
      timed('tls', () => this.tls.inspect(host, { signal, port: url.protocol === 'https:' ? port : 443 })),
      pageP,
      timed('ct', () => (target.isIp ? Promise.resolve(notApplicable) : this.ct.search(host, { signal }))),
      timed('history', () => this.history.captures(host, { signal })),
      browserP,
      hostIntelP,
      followP,
    ]);
    const addresses = addressesOf(dns);
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
