// Without Chromium the scanner still works: every capture is degraded, with a reason that says how to fix it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  ChromiumCapturer,
  chromiumPath,
  createBrowserCapturer,
  DEFAULT_CHROMIUM_PATH,
  NoBrowser,
} from '../../core/evidence/browser/index.ts';

test('a missing executable gives NoBrowser with the install hint', async () => {
  const capturer = createBrowserCapturer({ chromiumPath: '/nonexistent/chromium' });
  assert.equal(capturer instanceof NoBrowser, true);
  const result = await capturer.capture('https://example.com/');
  assert.equal(result.degraded, true);
  assert.equal(result.mode, 'none');
  assert.equal(result.final_url, 'about:blank');
  assert.deepEqual(result.hops, []);
  assert.equal(
    result.degraded_reason,
    'chromium not found at /nonexistent/chromium; install Debian chromium or set PREFLIGHT_CHROMIUM',
  );
  await capturer.close();
});

test('the Chromium capturer itself degrades when its executable is gone', async () => {
  const capturer = new ChromiumCapturer({ executablePath: '/nonexistent/chromium', guard: {} });
  const result = await capturer.capture('https://example.com/');
  assert.equal(result.degraded, true);
  assert.equal(result.mode, 'none');
  assert.match(result.degraded_reason ?? '', /^chromium not found at \/nonexistent\/chromium; install Debian chromium/);
  await capturer.close();
});

test('PREFLIGHT_CHROMIUM chooses the executable; the config wins over it', () => {
  const saved = process.env.PREFLIGHT_CHROMIUM;
  try {
    delete process.env.PREFLIGHT_CHROMIUM;
    assert.equal(chromiumPath(), DEFAULT_CHROMIUM_PATH);
    process.env.PREFLIGHT_CHROMIUM = '/opt/chromium/chrome';
    assert.equal(chromiumPath(), '/opt/chromium/chrome');
    assert.equal(chromiumPath({ chromiumPath: '/elsewhere/chromium' }), '/elsewhere/chromium');
  } finally {
    if (saved === undefined) delete process.env.PREFLIGHT_CHROMIUM;
    else process.env.PREFLIGHT_CHROMIUM = saved;
  }
});

test('a non-web URL is degraded before any browser starts', async () => {
  const capturer = new ChromiumCapturer({ executablePath: '/nonexistent/chromium', guard: {} });
  const result = await capturer.capture('file:///etc/passwd');
  assert.equal(result.degraded, true);
  assert.match(result.degraded_reason ?? '', /not a web URL/);
});
