import { accessSync, constants } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/**
 * The one way this service starts Chromium (the scanner's capturer and the PDF renderer both come through here),
 * plus the lazily launched, relaunch-on-crash slot both keep their browser in.
 */

export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // QUIC would be UDP straight to the site, around the proxy.
  '--disable-quic',
  // WebRTC would send UDP (STUN/ICE) to page-chosen addresses, around the proxy.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  // Kits gate on navigator.webdriver (session-verify-gateway.xyz does): a capture must see what a victim sees.
  '--disable-blink-features=AutomationControlled',
];

const LAUNCH_TIMEOUT_MS = 30_000;

/** `PREFLIGHT_CHROMIUM`, else `/usr/bin/chromium`, unless the caller names one. */
export function chromiumPath(config: { chromiumPath?: string } = {}): string {
  return config.chromiumPath ?? (process.env.PREFLIGHT_CHROMIUM || DEFAULT_CHROMIUM_PATH);
}

export function chromiumAvailable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface ChromiumLaunchOptions {
  executablePath: string;
  /** Added after CHROMIUM_FLAGS (proxy, resolver rules). */
  args?: readonly string[];
  /**
   * Drop Playwright's `--enable-automation`, which sets navigator.webdriver and shows the automation infobar: what
   * kits look for. The capturer wants this; the PDF renderer runs no page script and keeps Playwright's default.
   */
  hideAutomation?: boolean;
}

export function launchChromium(options: ChromiumLaunchOptions): Promise<Browser> {
  return chromium.launch({
    executablePath: options.executablePath,
    headless: true,
    timeout: LAUNCH_TIMEOUT_MS,
    ...(options.hideAutomation ? { ignoreDefaultArgs: ['--enable-automation'] } : {}),
    args: [...CHROMIUM_FLAGS, ...(options.args ?? [])],
    // The owner (server, worker, CLI) runs shutdown through close(); Chromium must not die on its signals first.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}

/** Holds one launched instance: launched on first use, shared, and forgotten when it fails or crashes. */
export class LaunchSlot<T> {
  private current?: Promise<T>;

  constructor(private readonly launch: () => Promise<T>) {}

  get(): Promise<T> {
    if (!this.current) {
      const launching = this.launch();
      this.current = launching;
      // A failed launch is retried by the next caller rather than cached forever.
      launching.catch(() => {
        if (this.current === launching) this.current = undefined;
      });
    }
    return this.current;
  }

  /** The instance died (browser disconnected): the next get() launches a new one. */
  forget(instance: T): void {
    void this.current?.then(
      (current) => {
        if (current === instance) this.current = undefined;
      },
      () => {},
    );
  }

  /** Empties the slot; resolves to what was running, if anything launched. */
  async take(): Promise<T | undefined> {
    const launching = this.current;
    this.current = undefined;
    return await launching?.catch(() => undefined);
  }
}
