// Browser capture against the lab, with the real Chromium, proxy and guard. Requires /usr/bin/chromium (or
// PREFLIGHT_CHROMIUM): CI installs it (.ci/run) and these tests fail there without it; elsewhere they are skipped
// with the reason printed, so a missing browser never reads as a pass.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ROOT_DIR } from '../../core/config.ts';
import type { BrowserCapture, BrowserCapturer } from '../../core/evidence/browser/index.ts';
import { chromiumAvailable, chromiumPath, createBrowserCapturer } from '../../core/evidence/browser/index.ts';
import { type Lab, startLab } from '../../lab/index.ts';

const CHROMIUM = chromiumPath();
const HAVE_CHROMIUM = chromiumAvailable(CHROMIUM);
if (!HAVE_CHROMIUM && process.env.CI === 'true') {
  throw new Error(`CI must install Chromium (apt-get install -y chromium): nothing executable at ${CHROMIUM}`);
}
const skip = HAVE_CHROMIUM ? false : `chromium not installed at ${CHROMIUM}: browser capture is NOT tested here`;

const SHARED_SITES = path.join(ROOT_DIR, '..', 'shared', 'eval', 'phishing', 'sites');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A TCP server that must never be reached: every connection to it is a guard failure. */
async function startCanary(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  let connections = 0;
  const servers: net.Server[] = [];
  const listen = (server: net.Server, host: string, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve((server.address() as net.AddressInfo).port));
    });
  const make = () => {
    const server = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    servers.push(server);
    return server;
  };
  const port = await listen(make(), '127.0.0.1', 0);
  // Same port on ::1 when the machine has IPv6 loopback, so `[::1]` spellings would be counted too.
  await listen(make(), '::1', port).catch(() => servers.pop());
  return {
    port,
    connections: () => connections,
    close: async () => {
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}

function site(dir: string, host: string, files: Record<string, string>): void {
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, host, file)), { recursive: true });
    writeFileSync(path.join(dir, host, file), content);
  }
}

describe('Chromium capture through the guarded proxy', { skip }, () => {
  let dir: string;
  let lab: Lab;
  let canary: Awaited<ReturnType<typeof startCanary>>;
  let browser: BrowserCapturer;
  const captures = new Map<string, Promise<BrowserCapture>>();
  // Each site is captured once and shared by the assertions about it.
  const capture = (url: string) => {
    let result = captures.get(url);
    if (!result) {
      result = browser.capture(url);
      captures.set(url, result);
    }
    return result;
  };

  before(async () => {
    canary = await startCanary();
    const loopback = `127.0.0.1:${canary.port}`;
    dir = mkdtempSync(path.join(os.tmpdir(), 'preflight-browser-'));
    for (const host of [
      'login-microsoftonline-secure.com',
      'session-verify-gateway.xyz',
      'status.brightline-hosting.net',
      '203.0.113.45',
    ]) {
      cpSync(path.join(SHARED_SITES, host), path.join(dir, host), { recursive: true });
    }
    site(dir, 'meta-refresh-hop.com', {
      'index.html':
        '<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0; url=/landed/"></head><body>wait</body></html>',
      'landed/index.html': '<!DOCTYPE html><html><body><h1>Landed</h1></body></html>',
    });
    site(dir, 'ssrf-probe-page.com', {
      'index.html': `<!DOCTYPE html><html><body><h1>probe</h1>
<img src="http://${loopback}/img"><img src="http://169.254.169.254/latest/meta-data/">
<img src="http://localhost:${canary.port}/"><img src="http://[::1]:${canary.port}/">
<img src="http://2130706433:${canary.port}/"><img src="http://0x7f.1:${canary.port}/">
<iframe src="https://${loopback}/frame"></iframe>
<script>
fetch('http://${loopback}/fetch').catch(() => {});
fetch('http://[::ffff:127.0.0.1]:${canary.port}/mapped').catch(() => {});
try { new WebSocket('ws://${loopback}/ws'); } catch (e) {}
</script></body></html>`,
    });
    site(dir, 'cloaking-checks.com', {
      'index.html': `<!DOCTYPE html><html><body><h1>checks</h1><script>
alert('dialogs must not block the capture');
window.open('https://wedged-renderer.com/');
localStorage.setItem('k', 'v');
navigator.geolocation.getCurrentPosition(() => {});
document.title = [navigator.webdriver, /Headless/.test(navigator.userAgent),
  /native code/.test(Storage.prototype.setItem.toString()), typeof window.__pfCapture].join(' ');
</script></body></html>`,
    });
    site(dir, 'wedged-renderer.com', { 'index.html': '<h1>spin</h1><script>while (true) {}</script>' });
    site(dir, 'redirect-to-loopback.com', {
      'site.json': JSON.stringify({ redirects: { '/': { to: `http://${loopback}/admin`, status: 302 } } }),
      'index.html': 'never served',
    });
    lab = await startLab({ sitesDir: dir });
    browser = createBrowserCapturer({ sources: lab.sourcesConfig() });
  });

  after(async () => {
    await browser?.close();
    await lab?.close();
    await canary?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('an HTTP 302 is an http hop, then the authorize page', async () => {
    const result = await capture('https://login-microsoftonline-secure.com/');
    assert.equal(result.mode, 'chromium');
    assert.equal(result.degraded, false, result.degraded_reason);
    assert.deepEqual(
      result.hops.map((hop) => [hop.kind, hop.status]),
      [
        ['initial', 302],
        ['http', 200],
      ],
    );
    assert.match(
      result.hops[1]!.url,
      /^https:\/\/login-microsoftonline-secure\.com\/common\/oauth2\/v2\.0\/authorize\//,
    );
    assert.equal(result.final_url, result.hops[1]!.url);
    assert.match(result.visible_text ?? '', /Sign in/);
    assert.match(result.html ?? '', /<html/i);
    assert.equal(result.behaviors.js_redirects, 0);
  });

  test('the screenshot is a viewport PNG with its sha256', async () => {
    const result = await capture('https://login-microsoftonline-secure.com/');
    const png = result.screenshot?.png;
    assert.ok(png && png.length > PNG_SIGNATURE.length, 'a screenshot');
    assert.deepEqual(png.subarray(0, 8), PNG_SIGNATURE);
    // IHDR width and height: the viewport, not the full page.
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [1280, 800]);
    assert.match(result.screenshot!.sha256, /^[0-9a-f]{64}$/);
  });

  test('storage, cookie and permission behaviour and a script redirect are recorded', async () => {
    const result = await capture('https://session-verify-gateway.xyz/');
    assert.equal(result.degraded, false, result.degraded_reason);
    const { behaviors } = result;
    assert.ok(behaviors.storage_writes.includes('localStorage:sv_token'), behaviors.storage_writes.join());
    assert.ok(behaviors.storage_writes.includes('sessionStorage:sv_seen'), behaviors.storage_writes.join());
    assert.ok(behaviors.cookie_writes >= 1);
    assert.ok(behaviors.permission_prompts.includes('notifications'), behaviors.permission_prompts.join());
    // The page hides its redirect from navigator.webdriver and delays it 4 s: the capture must still see it.
    assert.equal(result.hops[0]!.kind, 'initial');
    assert.equal(result.hops[1]?.kind, 'js');
    assert.match(result.hops[1]!.url, /^https:\/\/session-verify-gateway\.xyz\/\?s=/);
    assert.ok(behaviors.js_redirects >= 1);
    // It redirects to itself forever: following stops instead of spending the budget.
    assert.equal(result.stopped, 'loop');
  });

  test('a meta refresh is a meta hop', async () => {
    const result = await capture('https://meta-refresh-hop.com/');
    assert.equal(result.degraded, false, result.degraded_reason);
    assert.deepEqual(
      result.hops.map((hop) => [hop.kind, hop.url]),
      [
        ['initial', 'https://meta-refresh-hop.com/'],
        ['meta', 'https://meta-refresh-hop.com/landed/'],
      ],
    );
    assert.equal(result.final_url, 'https://meta-refresh-hop.com/landed/');
    assert.match(result.visible_text ?? '', /Landed/);
  });

  test('a vendor challenge page is recognised', async () => {
    const result = await capture('https://status.brightline-hosting.net/');
    assert.equal(result.behaviors.vendor_challenge, 'cloudflare');
  });

  test('bad certificates are captured anyway (evidence, not trust)', async () => {
    // Self-signed; every lab certificate also chains to a root Chromium does not know.
    const result = await capture('https://203.0.113.45/');
    assert.equal(result.degraded, false, result.degraded_reason);
    assert.equal(result.hops[0]?.status, 200);
  });

  test('a page cannot reach loopback or metadata addresses, however spelled', async () => {
    // Over http, so fetch and WebSocket are not stopped earlier as mixed content: they must reach the guard. A
    // clean capture running at the same time must not be charged with the probe's refusals.
    const [result, neighbour] = await Promise.all([
      capture('http://ssrf-probe-page.com/'),
      browser.capture('https://login-microsoftonline-secure.com/'),
    ]);
    assert.deepEqual(neighbour.blocked_requests, []);
    assert.equal(result.degraded, false, result.degraded_reason);
    const blocked = new Map((result.blocked_requests ?? []).map((entry) => [entry.url, entry.reason]));
    const listed = JSON.stringify([...blocked]);
    const port = canary.port;
    for (const [url, reason] of [
      [`http://127.0.0.1:${port}/img`, 'loopback'],
      ['http://169.254.169.254/latest/meta-data/', 'metadata'],
      [`http://localhost:${port}/`, 'local_name'],
      [`http://[::1]:${port}/`, 'loopback'],
      // 2130706433 and 0x7f.1 are 127.0.0.1 once the URL parser is done with them.
      [`http://127.0.0.1:${port}/`, 'loopback'],
      [`http://127.0.0.1:${port}/fetch`, 'loopback'],
      [`http://[::ffff:7f00:1]:${port}/mapped`, 'ipv4Mapped:loopback'],
      // The https iframe and the WebSocket are CONNECT tunnels: the proxy sees only the endpoint.
      [`127.0.0.1:${port}`, 'loopback'],
    ]) {
      assert.equal(blocked.get(url!), reason, `${url} in ${listed}`);
    }
    assert.equal(canary.connections(), 0);
  });

  test('a redirect to loopback is refused', async () => {
    const result = await capture('https://redirect-to-loopback.com/');
    assert.deepEqual(
      result.hops.map((hop) => hop.kind),
      ['initial', 'http'],
    );
    assert.equal(result.hops[1]!.url, `http://127.0.0.1:${canary.port}/admin`);
    assert.equal(result.hops[1]!.status, 403);
    assert.ok(result.blocked_requests?.some((entry) => entry.reason === 'loopback'));
    // What is on screen is the guard's refusal, not the site: no screenshot, and the reason says so.
    assert.equal(result.degraded, true);
    assert.match(result.degraded_reason ?? '', /SSRF guard refused http:\/\/127\.0\.0\.1:\d+\/admin \(loopback\)/);
    assert.equal(result.screenshot, undefined);
    assert.equal(canary.connections(), 0);
  });

  test('a loopback target is not captured, and says why', async () => {
    const result = await capture(`http://127.0.0.1:${canary.port}/`);
    assert.equal(result.degraded, true);
    assert.match(result.degraded_reason ?? '', /SSRF guard refused .*loopback/);
    assert.equal(canary.connections(), 0);
  });

  test('the lab servers themselves are reachable only through their site names', async () => {
    const result = await capture(`http://${lab.endpoints.http}/`);
    assert.equal(result.degraded, true);
    assert.match(result.degraded_reason ?? '', /loopback/);
  });

  test('the page sees an ordinary browser, and its popups and dialogs do not derail the capture', async () => {
    const result = await capture('https://cloaking-checks.com/');
    assert.equal(result.degraded, false, result.degraded_reason);
    // navigator.webdriver, a Headless user agent, a non-native setItem or the recorder's global would all be tells.
    assert.match(result.html ?? '', /<title>false false true undefined<\/title>/);
    assert.deepEqual(result.behaviors.storage_writes, ['localStorage:k']);
    assert.deepEqual(result.behaviors.permission_prompts, ['geolocation']);
    assert.deepEqual(
      result.hops.map((hop) => hop.url),
      ['https://cloaking-checks.com/'],
    );
  });

  test('a page that wedges its renderer is cut off and the capture says so', async () => {
    const result = await browser.capture('https://wedged-renderer.com/', { timeoutMs: 2_000 });
    assert.equal(result.mode, 'chromium');
    assert.equal(result.degraded, true);
    assert.match(result.degraded_reason ?? '', /timed out after 2000 ms/);
    assert.equal(result.stopped, 'timeout');
  });

  test('an aborted capture says so', async () => {
    const result = await browser.capture('https://login-microsoftonline-secure.com/', { signal: AbortSignal.abort() });
    assert.equal(result.degraded, true);
    assert.equal(result.degraded_reason, 'capture aborted');
  });
});
