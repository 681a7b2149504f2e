import type { ResolveHost } from '../net/guarded-target.ts';
import { NodeDnsResolver } from '../sources/dns-resolver.ts';
import type { SourcesConfig } from '../sources/index.ts';
import { type BrowserCapturer, NoBrowser } from './browser-capture.ts';
import { ChromiumCapturer, type ChromiumCapturerOptions } from './chromium-capturer.ts';
import { chromiumAvailable, chromiumPath } from './chromium-launcher.ts';

export interface BrowserCapturerConfig {
  /** Default: `PREFLIGHT_CHROMIUM`, else `/usr/bin/chromium`. */
  chromiumPath?: string;
  /**
   * The same source config the scanner uses. The browser takes `connectTo` (lab sites) and `dnsServers`; it does
   * not take `allowLoopback`, which exists for the scanner's API clients (RDAP, CT…), not for pages.
   */
  sources?: Pick<SourcesConfig, 'dnsServers' | 'connectTo' | 'allowLoopback' | 'timeoutsMs'>;
  /** Whole-capture budget. Default 15 s. */
  timeoutMs?: number;
  /** Tuning passed through (hops, settle time, viewport). */
  capture?: Omit<ChromiumCapturerOptions, 'executablePath' | 'guard' | 'timeoutMs'>;
}

/** Chromium when its executable is there, else a capturer whose every capture is degraded with the install hint. */
export function createBrowserCapturer(config: BrowserCapturerConfig = {}): BrowserCapturer {
  const executablePath = chromiumPath(config);
  if (!chromiumAvailable(executablePath)) {
    return new NoBrowser(`chromium not found at ${executablePath}; install Debian chromium or set PREFLIGHT_CHROMIUM`);
  }
  const sources = config.sources ?? {};
  let resolveHost: ResolveHost | undefined;
  if (sources.dnsServers?.length) {
    // Same resolution as the scanner's site clients: the configured servers (the lab DNS), every answer checked.
    const dns = new NodeDnsResolver({ servers: sources.dnsServers, timeoutMs: sources.timeoutsMs?.dns });
    resolveHost = async (host, signal) => {
      const answer = await dns.addresses(host, { signal });
      if (!answer.ok)
        throw Object.assign(new Error(`${answer.reason}: ${answer.detail ?? host}`), { code: 'ENOTFOUND' });
      return answer.value;
    };
  }
  return new ChromiumCapturer({
    ...config.capture,
    executablePath,
    timeoutMs: config.timeoutMs,
    guard: { connectTo: sources.connectTo, resolveHost, connectTimeoutMs: sources.timeoutsMs?.connect ?? 5_000 },
  });
}
