/** Redirects and icons authored inside a page. Regexes here use bounded, non-nested quantifiers only. */

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function decodeHtmlAttribute(value: string): string {
  return value.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, entity: string) => {
    if (entity[0] === '#') {
      const code =
        entity[1] === 'x' || entity[1] === 'X' ? Number.parseInt(entity.slice(2), 16) : Number(entity.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[entity.toLowerCase()] ?? whole;
  });
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  const raw = match?.[1] ?? match?.[2] ?? match?.[3];
  return raw === undefined ? undefined : decodeHtmlAttribute(raw);
}

function resolve(target: string, base: string): string | undefined {
  try {
    return new URL(target.trim(), base).href;
  } catch {
    return undefined;
  }
}

export interface MetaRefresh {
  to: string;
  delaySeconds: number;
}

/** Start and end offsets of `<noscript>` blocks (found with indexOf, linear). */
function noscriptRanges(html: string): [number, number][] {
  const lower = html.toLowerCase();
  const ranges: [number, number][] = [];
  for (let at = lower.indexOf('<noscript'); at >= 0 && ranges.length < 100; at = lower.indexOf('<noscript', at + 9)) {
    const close = lower.indexOf('</noscript', at);
    ranges.push([at, close < 0 ? html.length : close]);
    if (close < 0) break;
  }
  return ranges;
}

/**
 * `<meta http-equiv="refresh" content="0; url=…">`, the first one in the document. A refresh inside `<noscript>` is
 * skipped: a scripting browser never follows it (kits use it to send script-less scanners away).
 */
export function findMetaRefresh(html: string, baseUrl: string): MetaRefresh | undefined {
  const hidden = noscriptRanges(html);
  for (const m of html.matchAll(/<meta\b[^>]{0,4096}>/gi)) {
    const tag = m[0];
    if (hidden.some(([from, to]) => m.index >= from && m.index < to)) continue;
    if (attribute(tag, 'http-equiv')?.toLowerCase() !== 'refresh') continue;
    const content = attribute(tag, 'content');
    const match = content && /^\s*(\d{1,6})?(?:\.\d*)?\s*[;,]?\s*(?:url\s*=\s*)?(['"]?)(.*)\2\s*$/i.exec(content);
    const target = match?.[3];
    if (!target) continue;
    const to = resolve(target, baseUrl);
    if (to) return { to, delaySeconds: Number(match[1] ?? 0) };
  }
  return undefined;
}

export interface JsRedirect {
  to: string;
  /** The source text that assigns the location, for evidence. */
  expression: string;
  /** The target was built at run time; `to` is its literal prefix. */
  partial: boolean;
}

const SCRIPT_BLOCK = /<script\b[^>]{0,1024}>([\s\S]{0,200000}?)<\/script>/gi;
// `location = "…"`, `location.href = "…"`, `window.location.href='…'` — not `==` comparisons.
const LOCATION_ASSIGN =
  /\b(?:(?:window|self|top|document|parent)\s*\.\s*)?location(?:\s*\.\s*href)?\s*=(?!=)\s*(["'`])([^"'`\\\n]{0,2048})\1(\s*\+)?/;
const LOCATION_CALL =
  /\b(?:(?:window|self|top|document|parent)\s*\.\s*)?location\s*\.\s*(?:replace|assign)\s*\(\s*(["'`])([^"'`\\\n]{0,2048})\1(\s*\+)?/;

/** The first `location` assignment or `location.replace/assign` call with a string literal in an inline script. */
export function findJsRedirect(html: string, baseUrl: string): JsRedirect | undefined {
  for (const [, script] of html.matchAll(SCRIPT_BLOCK)) {
    if (!script) continue;
    const candidates = [LOCATION_ASSIGN.exec(script), LOCATION_CALL.exec(script)].filter(
      (match): match is RegExpExecArray => match !== null,
    );
    candidates.sort((a, b) => a.index - b.index);
    const match = candidates[0];
    if (!match) continue;
    const to = resolve(match[2]!, baseUrl);
    if (to) return { to, expression: match[0].trim(), partial: match[3] !== undefined };
  }
  return undefined;
}

/** The page's declared icon (`rel="icon"`, `shortcut icon`, `apple-touch-icon` last), else `/favicon.ico`. */
export function findFaviconUrl(html: string, baseUrl: string): string | undefined {
  let fallback: string | undefined;
  for (const [tag] of html.matchAll(/<link\b[^>]{0,4096}>/gi)) {
    const rel = attribute(tag, 'rel')?.toLowerCase().split(/\s+/) ?? [];
    const href = attribute(tag, 'href');
    if (!href) continue;
    if (rel.includes('icon')) return resolve(href, baseUrl);
    if (rel.includes('apple-touch-icon')) fallback ??= resolve(href, baseUrl);
  }
  return fallback ?? resolve('/favicon.ico', baseUrl);
}
