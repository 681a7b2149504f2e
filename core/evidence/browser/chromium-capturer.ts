import type { Browser, BrowserContext } from 'playwright-core';
import { checkUrl } from '../net/check-url.ts';
import type { GuardOptions } from '../net/guarded-target.ts';
import { type BrowserCapture, type BrowserCapturer, degradedCapture } from './browser-capture.ts';
import { CaptureSession, firstLine } from './capture-session.ts';
import { chromiumAvailable, LaunchSlot, launchChromium } from './chromium-launcher.ts';
import { type GuardedProxy, type ProxySession, startGuardedProxy } from './guarded-proxy.ts';

export interface ChromiumCapturerOptions {
  executablePath: string;
  /** Where the proxy may connect: connect-to mapping (lab) and the resolver. Loopback stays refused otherwise. */
  guard: GuardOptions & { connectTimeoutMs?: number };
  /** Whole-capture budget, launch excluded. Default 15 s. */
  timeoutMs?: number;
  /** Main-frame navigations followed before stopping. Default 10. */
  maxHops?: number;
  /** Page-clock time run forward after each load so timer-driven redirects fire without waiting. Default 10 s. */
  settleMs?: number;
  /** Longest real wait for a delayed `<meta http-equiv=refresh>` (Chromium times those outside the page clock). */
  metaRefreshWaitMs?: number;
  viewport?: { width: number; height: number };
}

/** Past the budget, how long the snapshot may still run before the context is torn down under it. */
const WATCHDOG_GRACE_MS = 3_000;

interface Running {
  browser: Browser;
  proxy: GuardedProxy;
  userAgent: string;
}

export class ChromiumCapturer implements BrowserCapturer {
  private readonly running = new LaunchSlot(() => this.launch());
  private closed = false;

  constructor(private readonly options: ChromiumCapturerOptions) {}

  async capture(url: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<BrowserCapture> {
    const started = performance.now();
    const finish = (capture: BrowserCapture) => ({ ...capture, duration_ms: Math.round(performance.now() - started) });
    const verdict = checkUrl(url);
    if (!verdict.url || (verdict.url.protocol !== 'http:' && verdict.url.protocol !== 'https:')) {
      return finish(degradedCapture(`not a web URL: ${verdict.reason}`, 'chromium'));
    }
    if (this.closed) return finish(degradedCapture('browser capturer is closed'));
    if (!chromiumAvailable(this.options.executablePath)) {
      return finish(
        degradedCapture(
          `chromium not found at ${this.options.executablePath}; install Debian chromium or set PREFLIGHT_CHROMIUM`,
        ),
      );
    }
    let running: Running;
    try {
      running = await this.running.get();
    } catch (err) {
      return finish(degradedCapture(`chromium failed to launch: ${firstLine(err)}`));
    }
    const budgetMs = options.timeoutMs ?? this.options.timeoutMs ?? 15_000;
    // The budget starts after launch: a cold start should not eat the first capture's time.
    const budgetStart = performance.now();
    const budget = AbortSignal.any([AbortSignal.timeout(budgetMs), ...(options.signal ? [options.signal] : [])]);
    let context: BrowserContext | undefined;
    let session: ProxySession | undefined;
    let watchdogFired = false;
    // Every step has its own timeout, but page code can still wedge the renderer (`while (true) {}` makes
    // evaluate and runFor wait forever). Closing the context rejects whatever is pending.
    const watchdog = setTimeout(() => {
      watchdogFired = true;
      void context?.close().catch(() => {});
    }, budgetMs + WATCHDOG_GRACE_MS);
    const onAbort = () => void context?.close().catch(() => {});
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      session = await running.proxy.openSession();
      context = await running.browser.newContext({
        // Its own proxy listener, so refusals are this capture's. Playwright adds `<-loopback>` to the bypass list
        // here too, so loopback goes through the guard.
        proxy: { server: session.url },
        viewport: this.options.viewport ?? { width: 1280, height: 800 },
        userAgent: running.userAgent,
        locale: 'en-US',
        // Evidence collection, not trust: phishing pages with bad certificates must still be captured (and lab
        // certificates chain to a root Chromium does not know). Certificate facts come from the TLS inspector;
        // the network is protected by the proxy's guard, which certificates do not affect.
        ignoreHTTPSErrors: true,
        serviceWorkers: 'block',
        acceptDownloads: false,
      });
      if (options.signal?.aborted) throw new Error('aborted');
      const run = new CaptureSession(context, session, this.options, budget, budgetStart, budgetMs);
      const result = await run.run(verdict.url.href);
      if (options.signal?.aborted) return finish(degradedCapture('capture aborted', 'chromium'));
      if (watchdogFired) {
        // Keep what was recorded before the page stopped answering; it is still evidence, just incomplete.
        return finish({
          ...result,
          degraded: true,
          degraded_reason: `capture timed out after ${budgetMs} ms: the page stopped responding`,
          stopped: 'timeout',
        });
      }
      return finish(result);
    } catch (err) {
      if (options.signal?.aborted) return finish(degradedCapture('capture aborted', 'chromium'));
      if (watchdogFired) return finish(degradedCapture(`capture timed out after ${budgetMs} ms`, 'chromium'));
      return finish(degradedCapture(`capture failed: ${firstLine(err)}`, 'chromium'));
    } finally {
      clearTimeout(watchdog);
      options.signal?.removeEventListener('abort', onAbort);
      await context?.close().catch(() => {});
      await session?.close();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const running = await this.running.take();
    if (!running) return;
    await running.browser.close().catch(() => {});
    await running.proxy.close();
  }

  private async launch(): Promise<Running> {
    const proxy = await startGuardedProxy(this.options.guard);
    try {
      const browser = await launchChromium({
        executablePath: this.options.executablePath,
        hideAutomation: true,
        args: [
          `--proxy-server=${proxy.url}`,
          // Chromium bypasses proxies for loopback by default; `<-loopback>` removes that, so `http://127.0.0.1:…`
          // from a page reaches the guard too instead of the local machine.
          '--proxy-bypass-list=<-loopback>',
          // Belt and braces: if anything ever skipped the proxy, Chromium itself cannot resolve a name.
          '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
        ],
      });
      const running: Running = { browser, proxy, userAgent: userAgentFor(browser.version()) };
      browser.on('disconnected', () => {
        // A crashed browser is relaunched by the next capture.
        this.running.forget(running);
        void proxy.close();
      });
      return running;
    } catch (err) {
      await proxy.close();
      throw err;
    }
  }
}

/** Headless Chromium says "HeadlessChrome" in its user agent; kits cloak on that. */
function userAgentFor(version: string): string {
  const major = version.split('.')[0] ?? '120';
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
}
