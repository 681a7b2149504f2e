// The few things URL detectors want from a scanned page: its title, whether it asks for a password, and its text.
// Regexes use bounded quantifiers only; the input is attacker-written HTML.

import type { ScanEvidence } from '../../core/plugin-api.ts';
import { decodeHtmlAttribute } from '../../core/plugin-api.ts';

/** Kits put the form near the top; reading further only adds cost on hostile input. */
const MAX_HTML_CHARS = 200_000;

export interface PageCues {
  title?: string;
  /** An `<input type="password">`: a login form, whatever the words around it say. */
  password_field: boolean;
  /** Visible-ish text (tags, scripts and styles removed), bounded. */
  text: string;
}

function pageHtml(evidence: ScanEvidence): string | undefined {
  const { browser, page } = evidence;
  const html = !browser.degraded && browser.html ? browser.html : page.final?.body;
  return html?.slice(0, MAX_HTML_CHARS);
}

export function titleOf(html: string): string | undefined {
  const match = /<title\b[^>]{0,200}>([^<]{0,300})<\/title>/i.exec(html);
  const title = match?.[1] ? decodeHtmlAttribute(match[1]).replace(/\s+/g, ' ').trim() : '';
  return title || undefined;
}

export function hasPasswordField(html: string): boolean {
  return /<input\b[^>]{0,500}?\btype\s*=\s*["']?password\b/i.test(html);
}

/** Drops `<script>`/`<style>`… blocks by index search (linear, unlike a lazy regex over unclosed blocks). */
function withoutBlocks(html: string): string {
  const open = /<(script|style|noscript|template)\b/gi;
  let out = '';
  let at = 0;
  for (;;) {
    open.lastIndex = at;
    const m = open.exec(html);
    if (!m) return out + html.slice(at);
    out += `${html.slice(at, m.index)} `;
    const close = new RegExp(`</${m[1]}[^>]{0,100}>`, 'gi');
    close.lastIndex = m.index;
    if (!close.exec(html)) return out;
    at = close.lastIndex;
  }
}

export function textOf(html: string): string {
  return decodeHtmlAttribute(withoutBlocks(html).replace(/<[^>]{0,2000}>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

/** Undefined when the scan fetched no page at all. */
export function pageCues(evidence: ScanEvidence): PageCues | undefined {
  const html = pageHtml(evidence);
  if (html === undefined) return undefined;
  const visible = !evidence.browser.degraded ? evidence.browser.visible_text : undefined;
  const title = titleOf(html);
  return {
    ...(title ? { title } : {}),
    password_field: hasPasswordField(html),
    text: visible ?? textOf(html),
  };
}
