// Where a page sends what its visitor types: form actions and the URLs its scripts post to (fetch, XHR, jQuery,
// sendBeacon). Harvesters drop credentials on a chat bot (Telegram Bot API, Discord webhooks), a form-to-mail relay,
// or another site's PHP script; honest sign-in forms post to their own site or their own identity provider.
import type { HtmlDocument, Target } from '../../core/plugin-api.ts';
import { parseTarget } from '../../core/plugin-api.ts';
import type { CredentialFunnel } from './credential-fields.ts';

export type SinkKind = 'chat_bot' | 'form_relay' | 'offsite_script' | 'offsite';

export interface CredentialSink {
  url: string;
  host: string;
  kind: SinkKind;
  /** `form` (a credential form's action) or `script` (a URL an inline script sends to). */
  via: 'form' | 'script';
}

/** Chat-bot and webhook endpoints: nobody's sign-in posts there, a harvester's relay does. */
const CHAT_BOT_HOSTS: readonly [RegExp, RegExp][] = [
  [/^api\.telegram\.org$/, /\/bot[^/]{0,200}\/(?:send|forward)/i],
  [/^(?:[a-z]+\.)?discord(?:app)?\.com$/, /\/api\/(?:v\d+\/)?webhooks\//i],
  [/^hooks\.slack\.com$/, /\/services\//i],
];
/** Form-to-mail and request-capture services (a static page's "backend"). */
const FORM_RELAY_HOSTS =
  /(?:^|\.)(?:formspree\.io|formsubmit\.co|getform\.io|usebasin\.com|web3forms\.com|api\.emailjs\.com|submit-form\.com|formcarry\.com|formkeep\.com|form\.taxi|getsimpleform\.com|webhook\.site|pipedream\.net|requestbin\.net|m\.pipedream\.net|hookbin\.com|script\.google\.com|sheetdb\.io|sheet\.best|api\.sheetmonkey\.io|ntfy\.sh)$/;

/** URL literals handed to fetch/XHR/jQuery/beacon calls, or assigned to a form's action, in inline scripts. */
const SCRIPT_SINK =
  /(?:fetch|\.open|\.post|\.ajax|sendBeacon|axios(?:\.post)?|\.action\s{0,20}=|url\s{0,20}:)\s{0,20}\(?\s{0,20}(?:["'`]\s{0,20}(?:POST|GET)\s{0,20}["'`]\s{0,20},\s{0,20})?["'`](https?:\/\/[^"'`\s]{3,500})/g;
/** Any absolute URL literal to a known relay host, however it is built into the call. */
const RELAY_LITERAL =
  /["'`](https:\/\/(?:api\.telegram\.org\/bot|discord(?:app)?\.com\/api\/webhooks\/)[^"'`\s]{3,500})/g;

function hostOf(url: string, base: Target): URL | undefined {
  try {
    return new URL(url, base.url);
  } catch {
    return undefined;
  }
}

function classify(url: URL, page: Target, via: CredentialSink['via']): SinkKind | undefined {
  const host = url.hostname.toLowerCase();
  if (!/^https?:$/.test(url.protocol)) return undefined;
  for (const [h, p] of CHAT_BOT_HOSTS) if (h.test(host) && p.test(url.pathname)) return 'chat_bot';
  if (FORM_RELAY_HOSTS.test(host)) return 'form_relay';
  let target: Target;
  try {
    target = parseTarget(url.href);
  } catch {
    return undefined;
  }
  // Site, not registrable domain: one tenant of a shared platform posting to another is off-site.
  if (target.site === page.site) return undefined;
  if (/\.php\d?$/i.test(url.pathname)) return 'offsite_script';
  return via === 'form' ? 'offsite' : undefined;
}

export function credentialSinks(doc: HtmlDocument, funnel: CredentialFunnel, page: Target): CredentialSink[] {
  const sinks: CredentialSink[] = [];
  const push = (raw: string, via: CredentialSink['via']) => {
    const url = hostOf(raw, page);
    if (!url || sinks.length >= 10 || sinks.some((s) => s.url === url.href)) return;
    const kind = classify(url, page, via);
    if (kind) sinks.push({ url: url.href.slice(0, 300), host: url.hostname, kind, via });
  };
  for (const form of funnel.credential_forms) if (form.action) push(form.action, 'form');
  // A script that posts what the page collected: only read when the page collects something.
  if (funnel.kinds.length > 0) {
    for (const script of doc.inlineScripts.slice(0, 50)) {
      const text = script.slice(0, 200_000);
      for (const m of text.matchAll(SCRIPT_SINK)) push(m[1]!, 'script');
      for (const m of text.matchAll(RELAY_LITERAL)) push(m[1]!, 'script');
    }
  }
  return sinks;
}
