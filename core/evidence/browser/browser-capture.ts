import type { InjectionToken } from 'tsyringe';
import type { ChallengeVendor } from './vendor-challenge.ts';

export type CaptureHopKind = 'initial' | 'http' | 'meta' | 'js';

/** Why following stopped: the page settled, too many hops, a redirect loop, or the time budget ran out. */
export type CaptureStop = 'final' | 'max_hops' | 'loop' | 'timeout';

/** What a real browser saw when it opened the target. Without Chromium, or when capture fails, `degraded` is set. */
export interface BrowserCapture {
  /** `chromium` when a browser ran; `none` when none is available. */
  mode: 'chromium' | 'none';
  degraded: boolean;
  degraded_reason?: string;
  /** Where the page ended up; `about:blank` when nothing loaded. */
  final_url: string;
  /** Every navigation, in order, with how it happened (HTTP 30x, meta refresh, or script). */
  hops: { url: string; kind: CaptureHopKind; status?: number }[];
  screenshot?: { png: Buffer; sha256: string };
  /** The final DOM, serialised, and its visible text (bounded). */
  html?: string;
  visible_text?: string;
  /** Things the page did that evasion gates and scanner blocks are made of. */
  behaviors: {
    storage_writes: string[];
    cookie_writes: number;
    permission_prompts: string[];
    js_redirects: number;
    /** A recognised vendor challenge (one of CHALLENGE_VENDORS: `cloudflare`, `akamai`, `perimeterx`…), if any. */
    vendor_challenge?: ChallengeVendor;
  };
  /** Requests the SSRF guard refused (the browser's proxy answered 403), with the guard's reason. Optional: additive. */
  blocked_requests?: { url: string; reason: string }[];
  /** Set when a browser ran. */
  stopped?: CaptureStop;
  duration_ms: number;
}

export interface BrowserCapturer {
  /** Never throws: a capture that cannot run comes back degraded with a reason. */
  capture(url: string, options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<BrowserCapture>;
  close(): Promise<void>;
}
export const BrowserCapturer: InjectionToken<BrowserCapturer> = Symbol('BrowserCapturer');

export function degradedCapture(reason: string, mode: BrowserCapture['mode'] = 'none'): BrowserCapture {
  return {
    mode,
    degraded: true,
    degraded_reason: reason,
    final_url: 'about:blank',
    hops: [],
    behaviors: { storage_writes: [], cookie_writes: 0, permission_prompts: [], js_redirects: 0 },
    duration_ms: 0,
  };
}

/** The capturer used when no browser is configured: every capture is degraded, with the reason. */
export class NoBrowser implements BrowserCapturer {
  constructor(private readonly reason: string) {}
  async capture(): Promise<BrowserCapture> {
    return degradedCapture(this.reason);
  }
  async close(): Promise<void> {}
}
