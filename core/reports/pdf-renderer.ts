import type { Browser, BrowserContext } from 'playwright-core';
import { chromiumAvailable, chromiumPath, LaunchSlot, launchChromium } from '../evidence/browser/chromium-launcher.ts';

/** No Chromium to render with: not installed, not executable, or it would not start. */
export class BrowserUnavailable extends Error {
  override readonly name = 'BrowserUnavailable';
}

/** The render ran past its budget; the page was torn down. */
export class RenderTimeout extends Error {
  override readonly name = 'RenderTimeout';
}

export interface PdfRendererOptions {
  /** Default: `PREFLIGHT_CHROMIUM`, else `/usr/bin/chromium` (same resolution as the scanner's browser). */
  executablePath?: string;
  /** Whole-render budget after launch. Default 20 s. */
  timeoutMs?: number;
  /** Renders in flight at once; the rest wait. Each is a renderer process with a page, so keep this small. */
  concurrency?: number;
}

const FOOTER =
  '<div style="width:100%;font-size:7pt;color:#777;text-align:right;padding:0 12mm;font-family:sans-serif">' +
  'page <span class="pageNumber"></span> of <span class="totalPages"></span></div>';

/**
 * HTML → A4 PDF in headless Chromium. One browser, launched on first use and shared; each render gets its own
 * context with JavaScript off and every request aborted, since the report HTML is self-contained and its values
 * come from scanned (attacker-controlled) pages.
 */
export class PdfRenderer {
  private readonly executablePath: string;
  private readonly timeoutMs: number;
  private readonly concurrency: number;
  private readonly browser = new LaunchSlot(() => this.launch());
  private closed = false;
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(options: PdfRendererOptions = {}) {
    this.executablePath = chromiumPath({ chromiumPath: options.executablePath });
    this.timeoutMs = options.timeoutMs ?? 20_000;
    this.concurrency = Math.max(1, options.concurrency ?? 2);
  }

  async render(html: string): Promise<Buffer> {
    if (this.closed) throw new BrowserUnavailable('the PDF renderer is closed');
    // Checked per render, not once: installing Chromium while the server runs fixes reports without a restart.
    if (!chromiumAvailable(this.executablePath)) {
      throw new BrowserUnavailable(
        `chromium not found at ${this.executablePath}; install Debian chromium or set PREFLIGHT_CHROMIUM`,
      );
    }
    await this.acquire();
    try {
      const browser = await this.browser.get();
      return await this.renderIn(browser, html);
    } finally {
      this.release();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const browser = await this.browser.take();
    await browser?.close().catch(() => {});
  }

  private async renderIn(browser: Browser, html: string): Promise<Buffer> {
    const context: BrowserContext = await browser.newContext({ javaScriptEnabled: false, offline: true });
    let timer: NodeJS.Timeout | undefined;
    try {
      // Offline plus abort-everything: a stray URL in the HTML (or a future template bug) fetches nothing.
      await context.route('**/*', (route) => route.abort('blockedbyclient'));
      const work = (async () => {
        const page = await context.newPage();
        await page.setContent(html, { waitUntil: 'load', timeout: this.timeoutMs });
        return page.pdf({
          format: 'A4',
          printBackground: true,
          preferCSSPageSize: true,
          // Printed reports get separated: every page says where it sits. Chromium fills the spans, no script runs.
          displayHeaderFooter: true,
          headerTemplate: '<span></span>',
          footerTemplate: FOOTER,
        });
      })();
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new RenderTimeout(`PDF render took longer than ${this.timeoutMs} ms`)),
          this.timeoutMs,
        );
      });
      // page.pdf has no timeout of its own; closing the context in `finally` ends whatever is still running.
      work.catch(() => {});
      return await Promise.race([work, timeout]);
    } catch (err) {
      if (err instanceof RenderTimeout) throw err;
      if ((err as Error)?.name === 'TimeoutError') throw new RenderTimeout(firstLine(err));
      throw err;
    } finally {
      clearTimeout(timer);
      await context.close().catch(() => {});
    }
  }

  private async launch(): Promise<Browser> {
    let browser: Browser;
    try {
      browser = await launchChromium({
        executablePath: this.executablePath,
        // Belt and braces with the per-context abort: the browser cannot resolve a name at all.
        args: ['--host-resolver-rules=MAP * ~NOTFOUND'],
      });
    } catch (err) {
      throw new BrowserUnavailable(`chromium failed to launch: ${firstLine(err)}`);
    }
    browser.on('disconnected', () => {
      // A crashed browser is relaunched by the next render.
      this.browser.forget(browser);
    });
    if (this.closed) {
      await browser.close().catch(() => {});
      throw new BrowserUnavailable('the PDF renderer is closed');
    }
    return browser;
  }

  private async acquire(): Promise<void> {
    if (this.active < this.concurrency) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    // Hand the slot straight to the next waiter, so `active` never dips and lets a newcomer jump the queue.
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}

function firstLine(err: unknown): string {
  return String((err as Error)?.message ?? err).split('\n')[0] ?? '';
}
