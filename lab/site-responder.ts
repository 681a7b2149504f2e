import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { labRequestUrl } from './request-url.ts';
import type { LabSite } from './site-model.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
};

/** Finds the site for a Host header or SNI name: exact, then without `www.`. */
export class SiteDirectory {
  private readonly byName = new Map<string, LabSite>();

  constructor(readonly sites: readonly LabSite[]) {
    for (const site of sites) this.byName.set(site.hostname, site);
  }

  find(name: string | undefined): LabSite | undefined {
    if (!name) return undefined;
    const host = name
      .toLowerCase()
      .replace(/^\[|\]$/g, '')
      .replace(/\.+$/, '');
    return this.byName.get(host) ?? (host.startsWith('www.') ? this.byName.get(host.slice(4)) : undefined);
  }
}

/** `Host: name:port` → `name` (IPv6 literals keep their address). */
export function hostFromHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const bracketed = /^\[([^\]]+)\]/.exec(header);
  if (bracketed) return bracketed[1];
  return header.replace(/:\d+$/, '');
}

async function fileFor(site: LabSite, pathname: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  const candidate = normalize(join(site.dir, decoded));
  // Paths outside the site folder, and the site's own description, are not part of the site.
  if (candidate !== site.dir && !candidate.startsWith(site.dir + sep)) return undefined;
  if (candidate === join(site.dir, 'site.json')) return undefined;
  try {
    const info = await stat(candidate);
    if (info.isFile()) return candidate;
    if (info.isDirectory()) {
      const index = join(candidate, 'index.html');
      if ((await stat(index)).isFile()) return index;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** Serve one request for a site: `redirects` first, then files; the site's custom headers on every answer. */
export async function respond(site: LabSite, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = labRequestUrl(req.url);
  if (!url) {
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('bad request target\n');
    return;
  }
  for (const [name, value] of Object.entries(site.headers)) res.setHeader(name, value);
  const redirect = site.redirects[url.pathname];
  if (redirect) {
    res.writeHead(redirect.status, { location: redirect.to, 'content-type': 'text/html; charset=utf-8' });
    res.end(`<a href="${redirect.to.replace(/"/g, '&quot;')}">Moved</a>\n`);
    return;
  }
  const file = await fileFor(site, url.pathname);
  if (!file) {
    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<h1>Not Found</h1>\n');
    return;
  }
  const body = await readFile(file);
  res.writeHead(200, {
    'content-type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'content-length': body.length,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
