export * from './browser-capture.ts';
export { CHROMIUM_FLAGS, ChromiumCapturer, type ChromiumCapturerOptions } from './chromium-capturer.ts';
export {
  type BrowserCapturerConfig,
  chromiumAvailable,
  chromiumPath,
  createBrowserCapturer,
  DEFAULT_CHROMIUM_PATH,
} from './create-browser-capturer.ts';
export { type GuardedProxy, type ProxyRefusal, REFUSED_HEADER, startGuardedProxy } from './guarded-proxy.ts';
export { type ChallengeSignals, detectVendorChallenge } from './vendor-challenge.ts';
