/**
 * Scripts the capture runs inside the page, as source strings: plain JS, since the type-checker has no DOM lib here
 * and they execute in the page's realm, not Node's.
 */

const HTML_CAP = 1_000_000;
const TEXT_CAP = 100_000;

/**
 * Runs in every frame before the page's own scripts. Wraps the APIs evasion gates and kits use and reports through
 * the exposed binding; wrapped functions keep their native `toString` so the instrumentation is not a fingerprint.
 * Plain JS (the type-checker has no DOM lib here).
 */
export const INSTRUMENT = `(() => {
  const binding = window.__pfCapture;
  // Keep the reference, drop the global: a page enumerating window should not find the recorder.
  try { delete window.__pfCapture; } catch (e) {}
  const report = (kind, detail) => { try { binding(kind, String(detail).slice(0, 200)); } catch (e) {} };
  const natives = new WeakMap();
  const fnToString = Function.prototype.toString;
  const toString = function toString() { return fnToString.call(natives.get(this) || this); };
  natives.set(toString, fnToString);
  Function.prototype.toString = toString;
  const wrap = (owner, name, before) => {
    if (!owner || typeof owner[name] !== 'function') return;
    const original = owner[name];
    const wrapped = { [name](...args) { try { before.apply(this, args); } catch (e) {} return original.apply(this, args); } }[name];
    natives.set(wrapped, original);
    try { owner[name] = wrapped; } catch (e) {}
  };
  wrap(window.Storage && Storage.prototype, 'setItem', function (key) {
    let area = 'storage';
    try { area = this === window.localStorage ? 'localStorage' : this === window.sessionStorage ? 'sessionStorage' : area; } catch (e) {}
    report('storage', area + ':' + key);
  });
  try {
    const cookie = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
    const set = { set cookie(value) { report('cookie', String(value).split('=')[0].trim()); cookie.set.call(this, value); } };
    const setter = Object.getOwnPropertyDescriptor(set, 'cookie').set;
    natives.set(setter, cookie.set);
    Object.defineProperty(Document.prototype, 'cookie', { ...cookie, set: setter });
  } catch (e) {}
  wrap(window.CookieStore && CookieStore.prototype, 'set', function (name) {
    report('cookie', typeof name === 'object' && name ? name.name : name);
  });
  wrap(window.Notification, 'requestPermission', () => report('permission', 'notifications'));
  wrap(window.Permissions && Permissions.prototype, 'query', (descriptor) => report('permission', 'query:' + (descriptor && descriptor.name)));
  wrap(window.Geolocation && Geolocation.prototype, 'getCurrentPosition', () => report('permission', 'geolocation'));
  wrap(window.Geolocation && Geolocation.prototype, 'watchPosition', () => report('permission', 'geolocation'));
  wrap(window.MediaDevices && MediaDevices.prototype, 'getUserMedia', (constraints) => {
    if (constraints && constraints.video) report('permission', 'camera');
    if (constraints && constraints.audio) report('permission', 'microphone');
  });
  wrap(window.MediaDevices && MediaDevices.prototype, 'getDisplayMedia', () => report('permission', 'display-capture'));
  wrap(window.Clipboard && Clipboard.prototype, 'readText', () => report('permission', 'clipboard-read'));
  wrap(window.Clipboard && Clipboard.prototype, 'read', () => report('permission', 'clipboard-read'));
})();`;

export const SNAPSHOT_JS = `(() => {
  const doctype = document.doctype ? '<!DOCTYPE ' + document.doctype.name + '>' : '';
  const html = doctype + (document.documentElement ? document.documentElement.outerHTML : '');
  const text = document.body ? document.body.innerText : '';
  return { html: html.slice(0, ${HTML_CAP}), text: text.slice(0, ${TEXT_CAP}), title: String(document.title).slice(0, 500) };
})()`;

/** Seconds until the document's meta refresh fires, or null. Only its delay matters; Chromium does the navigating. */
export const META_DELAY_JS = `(() => {
  const meta = document.querySelector('meta[http-equiv="refresh" i]');
  const match = meta && /^\\s*(\\d{1,6})/.exec(meta.getAttribute('content') || '');
  return match ? Number(match[1]) : meta ? 0 : null;
})()`;
