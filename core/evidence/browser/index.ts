export * from './browser-capture.ts';
export { ChromiumCapturer, type ChromiumCapturerOptions } from './chromium-capturer.ts';
export { CHROMIUM_FLAGS, chromiumAvailable, chromiumPath, DEFAULT_CHROMIUM_PATH } from './chromium-launcher.ts';
export { type BrowserCapturerConfig, createBrowserCapturer } from './create-browser-capturer.ts';
export { type GuardedProxy, type ProxyRefusal, REFUSED_HEADER, startGuardedProxy } from './guarded-proxy.ts';
export { type ChallengeSignals, detectVendorChallenge } from './vendor-challenge.ts';
