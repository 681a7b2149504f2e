// Without a browser, what a page *would* do is read from its inline scripts. Static reading misses obfuscated and
// external code; it is the fallback that keeps the HTML-based detection working, not a replacement for Chromium.
// Every pattern is a flat alternation with bounded classes (no nested quantifiers).

/** Same shape as `BrowserCapture['behaviors']` plus what only the source shows. */
export interface PageBehaviors {
  storage_writes: string[];
  cookie_writes: number;
  permission_prompts: string[];
  js_redirects: number;
  /** Script probes for automation (`navigator.webdriver`): a page that hides from scanners checks for them. */
  automation_probe?: boolean;
  source: 'browser' | 'static';
}

const MAX_SCRIPT_CHARS = 200_000;
const MAX_LISTED = 20;

const STORAGE_SET_ITEM = /\b(localStorage|sessionStorage)\s*\.\s*setItem\s*\(\s*(?:(["'`])([^"'`\\\n]{0,64})\2)?/g;
const STORAGE_ASSIGN =
  /\b(localStorage|sessionStorage)\s*(?:\[\s*(["'`])([^"'`\\\n]{0,64})\2\s*\]|\.\s*([A-Za-z_$][\w$]{0,63}))\s*=(?!=)/g;
const INDEXED_DB_OPEN = /\bindexedDB\s*\.\s*open\s*\(/g;
const COOKIE_WRITE = /\bdocument\s*\.\s*cookie\s*=(?!=)/g;
const LOCATION_CHANGE =
  /\blocation(?:\s*\.\s*href)?\s*=(?!=)|\blocation\s*\.\s*(?:replace|assign)\s*\(|\bhistory\s*\.\s*go\s*\(\s*0\s*\)|\blocation\s*\.\s*reload\s*\(/g;
const AUTOMATION_PROBE =
  /\bnavigator\s*\.\s*webdriver\b|\b(?:callPhantom|_phantom|__nightmare|domAutomation|__selenium_unwrapped|__webdriver_evaluate)\b/;

const PERMISSION_CALLS: readonly [RegExp, string][] = [
  [/\bNotification\s*\.\s*requestPermission\s*\(/, 'notifications'],
  [/\bnavigator\s*\.\s*geolocation\s*\.\s*(?:getCurrentPosition|watchPosition)\s*\(/, 'geolocation'],
  [/\bmediaDevices\s*\.\s*getUserMedia\s*\(|\bnavigator\s*\.\s*getUserMedia\s*\(/, 'camera_microphone'],
  [/\bnavigator\s*\.\s*clipboard\s*\.\s*read(?:Text)?\s*\(/, 'clipboard_read'],
  [/\bpushManager\s*\.\s*subscribe\s*\(/, 'push'],
  [/\bnavigator\s*\.\s*permissions\s*\.\s*query\s*\(/, 'permissions_query'],
];

function countMatches(pattern: RegExp, text: string): number {
  let n = 0;
  for (const _ of text.matchAll(pattern)) n++;
  return n;
}

/** What inline scripts (and a meta refresh) would do when the page runs. */
export function staticBehaviors(inlineScripts: readonly string[], metaRefresh?: string): PageBehaviors {
  const storage = new Set<string>();
  const permissions = new Set<string>();
  let cookies = 0;
  // A meta refresh, with or without a URL, navigates (a bare delay reloads the page itself).
  let redirects = metaRefresh ? 1 : 0;
  let automation = false;
  let budget = MAX_SCRIPT_CHARS;
  for (const whole of inlineScripts) {
    if (budget <= 0) break;
    const script = whole.slice(0, budget);
    budget -= script.length;
    for (const m of script.matchAll(STORAGE_SET_ITEM)) storage.add(`${m[1]}:${m[3] ?? '?'}`);
    for (const m of script.matchAll(STORAGE_ASSIGN)) storage.add(`${m[1]}:${m[3] ?? m[4] ?? '?'}`);
    if (INDEXED_DB_OPEN.test(script)) storage.add('indexedDB');
    INDEXED_DB_OPEN.lastIndex = 0;
    cookies += countMatches(COOKIE_WRITE, script);
    redirects += countMatches(LOCATION_CHANGE, script);
    for (const [pattern, name] of PERMISSION_CALLS) if (pattern.test(script)) permissions.add(name);
    automation ||= AUTOMATION_PROBE.test(script);
  }
  return {
    storage_writes: [...storage].slice(0, MAX_LISTED),
    cookie_writes: cookies,
    permission_prompts: [...permissions],
    js_redirects: redirects,
    ...(automation ? { automation_probe: true } : {}),
    source: 'static',
  };
}
