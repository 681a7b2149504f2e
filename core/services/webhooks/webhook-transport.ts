import type { InjectionToken } from 'tsyringe';
import { type Dispatcher, request } from 'undici';
import { createGuardedDispatcher } from '../../evidence/net/guarded-dispatcher.ts';
import { findSsrfError } from '../../evidence/net/ssrf-error.ts';

export interface WebhookResponse {
  status: number;
}

/** Sends one signed webhook POST. Every connection goes through the SSRF guard. */
export interface WebhookTransport {
  post(url: string, headers: Record<string, string>, body: string): Promise<WebhookResponse>;
  close(): Promise<void>;
}

export const WebhookTransport: InjectionToken<WebhookTransport> = Symbol('WebhookTransport');

/** A refusal of the guard: retrying cannot help, so the delivery goes straight to dead_letter. */
export class WebhookRefused extends Error {}

const TIMEOUT_MS = 10_000;

export interface GuardedWebhookOptions {
  /**
   * `ip:port` endpoints allowed although their address is refused (loopback receivers in tests and the lab):
   * the same allowance the source clients use for the lab's own servers. Empty in production.
   */
  allowEndpoints?: readonly string[];
}

/** undici over a guarded dispatcher: resolve once, check every address, connect to the checked one. undici.request follows no redirects, so a 30x is a failed attempt. */
export class GuardedWebhookTransport implements WebhookTransport {
  private readonly dispatcher: Dispatcher;

  constructor(options: GuardedWebhookOptions = {}) {
    this.dispatcher = createGuardedDispatcher({
      allowEndpoints: options.allowEndpoints ? [...options.allowEndpoints] : undefined,
      connectTimeoutMs: 5_000,
    });
  }

  async post(url: string, headers: Record<string, string>, body: string): Promise<WebhookResponse> {
    try {
      const res = await request(url, {
        method: 'POST',
        headers,
        body,
        dispatcher: this.dispatcher,
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
      });
      await res.body.dump({ limit: 64 * 1024 });
      return { status: res.statusCode };
    } catch (err) {
      const ssrf = findSsrfError(err);
      if (ssrf) throw new WebhookRefused(`refused by the SSRF guard: ${ssrf.message}`);
      throw err;
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}
