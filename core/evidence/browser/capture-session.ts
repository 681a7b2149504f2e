import { createHash } from 'node:crypto';
import type { BrowserContext, CDPSession, Page, Request } from 'playwright-core';
import { endpointKey, normaliseHost } from '../net/guarded-target.ts';
import type { BrowserCapture, CaptureHopKind, CaptureStop } from './browser-capture.ts';
import type { ChromiumCapturerOptions } from './chromium-capturer.ts';
import type { ProxyRefusal, ProxySession } from './guarded-proxy.ts';
import { INSTRUMENT, META_DELAY_JS, SNAPSHOT_JS } from './page-scripts.ts';
import { detectVendorChallenge } from './vendor-challenge.ts';

// One capture's record keeping (hops, behaviours, the snapshot); ChromiumCapturer owns the browser and the budget.

const LIST_CAP = 100;

export function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return (message.split('\n')[0] ?? '').slice(0, 300);
}

function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}

function pathKey(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url;
  }
}

const NAVIGATION_REASON_KIND: Record<string, CaptureHopKind> = {
  metaTagRefresh: 'meta',
  // A `Refresh:` response header is the header form of the same mechanism.
  httpHeaderRefresh: 'meta',
};

/** Whether a refusal was this URL: the same URL for plain HTTP, the same endpoint for a tunnel. */
function refuses(refusal: ProxyRefusal, url: string): boolean {
  if (refusal.target.includes('/')) return withoutFragment(refusal.target) === withoutFragment(url);
  try {
    const parsed = new URL(url);
    const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
    return parsed.protocol === 'https:' && refusal.target === endpointKey(normaliseHost(parsed.hostname), port);
  } catch {
    return false;
  }
}

interface Hop {
  url: string;
  kind: CaptureHopKind | 'pending';
  request: Request;
}

/** Sleep that ends early on abort; never rejects. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** One capture: one context, one page, its listeners and the record they build. */
export class CaptureSession {
  private page!: Page;
  private cdp?: CDPSession;
  private readonly hops: Hop[] = [];
  private readonly statuses = new Map<Request, number>();
  private readonly navigationReasons: { url: string; reason: string; used: boolean }[] = [];
  private readonly storageWrites = new Set<string>();
  private readonly permissionPrompts = new Set<string>();
  private scriptCookieWrites = 0;
  private readonly setCookieCounts: Promise<number>[] = [];
  private readonly documentHeaders: Promise<Record<string, string>>[] = [];
  private readonly urls: string[] = [];
  private stopped: CaptureStop = 'final';
  private readonly hopWaiters = new Set<() => void>();
  private mainFrameId?: string;

  constructor(
    private readonly context: BrowserContext,
    private readonly proxy: ProxySession,
    private readonly options: ChromiumCapturerOptions,
    private readonly budget: AbortSignal,
    private readonly started: number,
    private readonly budgetMs: number,
  ) {}

  private remaining(reserveMs = 0): number {
    return Math.max(0, this.budgetMs - (performance.now() - this.started) - reserveMs);
  }

  async run(url: string): Promise<BrowserCapture> {
    const context = this.context;
    await context.exposeBinding('__pfCapture', (_source, kind: unknown, detail: unknown) =>
      this.onBehavior(kind, detail),
    );
    await context.addInitScript({ content: INSTRUMENT });
    // A fake page clock lets timer-driven redirects (`setTimeout(() => location.replace(…), 4000)`) fire at once.
    await context.clock.install();
    // Popups are closed at once: one page is the evidence, and the page clock runs timers in every page of the
    // context, so a popup that spins would wedge the capture. The first page of the fresh context is ours (the
    // event fires before newPage resolves).
    let first = true;
    context.on('page', (popup) => {
      if (first) first = false;
      else void popup.close().catch(() => {});
    });
    this.page = await context.newPage();
    const page = this.page;
    this.cdp = await context.newCDPSession(page);
    await this.cdp.send('Page.enable');
    this.mainFrameId = (await this.cdp.send('Page.getFrameTree')).frameTree.frame.id;
    this.cdp.on('Page.frameRequestedNavigation', (event) => {
      if (event.frameId !== this.mainFrameId || this.navigationReasons.length >= LIST_CAP) return;
      this.navigationReasons.push({ url: withoutFragment(event.url), reason: event.reason, used: false });
    });
    page.on('request', (request) => this.onRequest(request));
    page.on('response', (response) => {
      const request = response.request();
      const main = this.isMainNavigation(request);
      if (main) this.statuses.set(request, response.status());
      if (this.setCookieCounts.length < 500) {
        this.setCookieCounts.push(
          response.headersArray().then(
            (headers) => headers.filter((h) => h.name.toLowerCase() === 'set-cookie').length,
            () => 0,
          ),
        );
      }
      if (main && this.documentHeaders.length < LIST_CAP) {
        this.documentHeaders.push(response.allHeaders().catch(() => ({})));
      }
    });
    // Keep time for the snapshot however the navigation went.
    const reserve = Math.min(3_000, this.budgetMs / 4);
    let navigationError: string | undefined;
    try {
      await page.goto(url, { waitUntil: 'load', timeout: Math.max(1, this.remaining(reserve)) });
    } catch (err) {
      navigationError = firstLine(err);
      // Cut off by the capture's own deadline (a slow start on a busy machine leaves the navigation little time):
      // that is the capture timing out, and the report says so rather than naming the step it happened in.
      if (this.remaining(reserve) <= 0) {
        this.stopped = 'timeout';
        navigationError = `capture timed out after ${this.budgetMs} ms (${navigationError})`;
      }
    }
    await this.followRedirects(reserve);
    if (this.stopped !== 'final') await this.cdp.send('Page.stopLoading').catch(() => {});
    return await this.snapshot(navigationError);
  }

  private isMainNavigation(request: Request): boolean {
    try {
      return request.isNavigationRequest() && request.frame() === this.page.mainFrame();
    } catch {
      // Service-worker requests have no frame.
      return false;
    }
  }

  private onRequest(request: Request): void {
    if (this.urls.length < 1_000) this.urls.push(request.url());
    if (!this.isMainNavigation(request) || this.stopped !== 'final') return;
    const hopUrl = request.url();
    const kind: Hop['kind'] = this.hops.length === 0 ? 'initial' : request.redirectedFrom() ? 'http' : 'pending';
    const maxHops = this.options.maxHops ?? 10;
    const exactRepeat = this.hops.some((hop) => withoutFragment(hop.url) === withoutFragment(hopUrl));
    // `/` → `/?s=a` → `/?s=b`… never repeats exactly; the same path a third time is the same loop.
    const samePath = this.hops.filter((hop) => pathKey(hop.url) === pathKey(hopUrl)).length;
    this.hops.push({ url: hopUrl, kind, request });
    if (exactRepeat || samePath >= 2) this.stopped = 'loop';
    else if (this.hops.length >= maxHops) this.stopped = 'max_hops';
    for (const waiter of this.hopWaiters) waiter();
  }

  private onBehavior(kind: unknown, detail: unknown): void {
    const text = String(detail);
    if (kind === 'storage' && this.storageWrites.size < LIST_CAP) this.storageWrites.add(text);
    else if (kind === 'cookie') this.scriptCookieWrites++;
    else if (kind === 'permission' && this.permissionPrompts.size < LIST_CAP) this.permissionPrompts.add(text);
  }

  /** Resolves when a new main-frame navigation starts, or after `ms`. */
  private waitForHop(ms: number): Promise<boolean> {
    const seen = this.hops.length;
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.hopWaiters.delete(check);
        this.budget.removeEventListener('abort', done);
        resolve(this.hops.length !== seen);
      };
      const check = () => {
        if (this.hops.length !== seen) done();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.hopWaiters.add(check);
      this.budget.addEventListener('abort', done, { once: true });
    });
  }

  /**
   * After each load: let the network settle briefly, run the page's timers forward, and give a delayed meta refresh
   * real time if it fits the budget. Any new main-frame navigation starts the round again.
   */
  private async followRedirects(reserve: number): Promise<void> {
    const page = this.page;
    const settleMs = this.options.settleMs ?? 10_000;
    const metaWaitMs = this.options.metaRefreshWaitMs ?? 5_000;
    while (this.stopped === 'final') {
      if (this.budget.aborted || this.remaining(reserve) <= 0) {
        this.stopped = 'timeout';
        return;
      }
      const seen = this.hops.length;
      await page.waitForLoadState('load', { timeout: Math.max(1, this.remaining(reserve)) }).catch(() => {});
      await page
        .waitForLoadState('networkidle', { timeout: Math.max(1, Math.min(1_500, this.remaining(reserve))) })
        .catch(() => {});
      if (this.hops.length !== seen) continue;

      await this.context.clock.runFor(settleMs).catch(() => {});
      // A navigation a timer started shows up as a request a moment later.
      if (this.hops.length !== seen || (await this.waitForHop(Math.min(300, this.remaining(reserve))))) continue;

      const metaDelay = await page.evaluate<number | null>(META_DELAY_JS).catch(() => null);
      if (metaDelay !== null && metaDelay * 1_000 <= Math.min(metaWaitMs, this.remaining(reserve))) {
        if (await this.waitForHop(metaDelay * 1_000 + 1_000)) continue;
      }
      return;
    }
  }

  private async snapshot(navigationError: string | undefined): Promise<BrowserCapture> {
    const page = this.page;
    const snapTimeout = Math.max(500, this.remaining());
    const state = await page
      .evaluate<{ html: string; text: string; title: string }>(SNAPSHOT_JS)
      .catch(() => ({ html: '', text: '', title: '' }));
    let screenshot: BrowserCapture['screenshot'];
    try {
      const png = await page.screenshot({ type: 'png', fullPage: false, timeout: snapTimeout });
      screenshot = { png, sha256: createHash('sha256').update(png).digest('hex') };
    } catch {
      screenshot = undefined;
    }
    const settled = <T>(promises: Promise<T>[], fallback: T) =>
      Promise.race([
        Promise.all(promises),
        pause(Math.min(1_000, snapTimeout), new AbortController().signal).then(() => promises.map(() => fallback)),
      ]);
    const [setCookies, headers, cookies] = await Promise.all([
      settled(this.setCookieCounts, 0),
      settled(this.documentHeaders, {} as Record<string, string>),
      this.context.cookies().catch(() => []),
    ]);

    const hops = this.hops.map((hop) => ({
      url: hop.url,
      kind: hop.kind === 'pending' ? this.navigationKind(hop.url) : hop.kind,
      ...(this.statuses.has(hop.request) ? { status: this.statuses.get(hop.request) } : {}),
    }));
    const pageUrl = page.url();
    // Chromium's error page has its own URL; where the browser was trying to go is the evidence.
    const finalUrl = pageUrl.startsWith('chrome-error:') ? (hops.at(-1)?.url ?? 'about:blank') : pageUrl;
    const loadedAnything = hops.some((hop) => hop.status !== undefined);
    const refusals = this.proxy.refusals;
    // Ending on the guard's refusal means the screenshot and DOM are the proxy's 403, not the site: not evidence.
    const refusedFinal = refusals.find((refusal) => refuses(refusal, finalUrl));
    const usable = loadedAnything && !refusedFinal;
    const capture: BrowserCapture = {
      mode: 'chromium',
      degraded: !usable,
      final_url: finalUrl,
      hops,
      ...(usable ? { screenshot, html: state.html, visible_text: state.text } : {}),
      behaviors: {
        storage_writes: [...this.storageWrites],
        cookie_writes: this.scriptCookieWrites + setCookies.reduce((sum, n) => sum + n, 0),
        permission_prompts: [...this.permissionPrompts],
        js_redirects: hops.filter((hop) => hop.kind === 'js').length,
        vendor_challenge: detectVendorChallenge({
          html: state.html,
          visible_text: state.text,
          title: state.title,
          urls: this.urls,
          headers,
          cookies: cookies.map((cookie) => cookie.name),
        }),
      },
      // Chromium retries a refused tunnel: one entry per destination.
      blocked_requests: [...new Map(refusals.map((refusal) => [refusal.target, refusal.reason])).entries()].map(
        ([target, reason]) => ({ url: target, reason }),
      ),
      stopped: this.stopped,
      duration_ms: 0,
    };
    if (!usable) {
      const refused = refusedFinal ?? (loadedAnything ? undefined : refusals[0]);
      capture.degraded_reason = refused
        ? `the SSRF guard refused ${refused.target} (${refused.reason})`
        : `navigation failed: ${navigationError ?? 'no response'}`;
    }
    if (capture.behaviors.vendor_challenge === undefined) delete capture.behaviors.vendor_challenge;
    return capture;
  }

  /** What Chromium said started a renderer-initiated navigation; anything not a refresh is script. */
  private navigationKind(url: string): CaptureHopKind {
    const match = this.navigationReasons.find((entry) => !entry.used && entry.url === withoutFragment(url));
    if (!match) return 'js';
    match.used = true;
    return NAVIGATION_REASON_KIND[match.reason] ?? 'js';
  }
}
