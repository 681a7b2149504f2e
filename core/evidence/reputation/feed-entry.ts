import { parseTarget } from '../../engine/url/target.ts';

export interface FeedEntry {
  kind: 'host' | 'url';
  /** Lower-case host, or the URL without fragment, default port or trailing-dot host. */
  value: string;
  host: string;
}

/** A feed line is a URL (`kind: url`) or a bare host (`kind: host`); anything else is rejected with a reason. */
export function feedEntryOf(raw: string): FeedEntry {
  const text = raw.trim();
  const isUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
  if (!isUrl && !/^[^\s/?#]+$/.test(text)) throw new Error(`not a host or URL: ${JSON.stringify(text.slice(0, 80))}`);
  const target = parseTarget(text);
  if (!isUrl) return { kind: 'host', value: target.host, host: target.host };
  return { kind: 'url', value: normalizedUrl(target.url, target.host), host: target.host };
}

export function normalizedUrl(url: URL, host: string): string {
  const port = url.port ? `:${url.port}` : '';
  return `${url.protocol}//${host.includes(':') ? `[${host}]` : host}${port}${url.pathname}${url.search}`;
}
