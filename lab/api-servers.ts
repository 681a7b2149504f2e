import http from 'node:http';
import { type ApiAnswer, cdxSearch, crtShSearch, rdapDomain, shodanHost } from './api-responses.ts';
import { listenEphemeral } from './listen.ts';
import { labRequestUrl } from './request-url.ts';
import type { LabSite } from './site-model.ts';

type Route = (url: URL) => ApiAnswer | undefined;

function serve(route: Route): http.Server {
  return http.createServer((req, res) => {
    const url = labRequestUrl(req.url);
    let answer: ApiAnswer | undefined;
    try {
      answer = url
        ? req.method === 'GET' || req.method === 'HEAD'
          ? route(url)
          : undefined
        : { status: 400, body: { error: 'bad request target' } };
    } catch {
      // A malformed parameter (`%ff` in a name) is the client's mistake; the lab stays up for everyone else.
      answer = { status: 400, body: { error: 'bad request' } };
    }
    const { status, body, contentType } = answer ?? { status: 404, body: { error: 'not found' } };
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, {
      'content-type': contentType ?? 'application/json',
      'content-length': Buffer.byteLength(text),
    });
    res.end(req.method === 'HEAD' ? undefined : text);
  });
}

export interface ApiServers {
  rdap: string;
  ct: string;
  history: string;
  hostintel: string;
  close(): Promise<void>;
}

/** One listener per API, as they are separate services on the internet (and fail separately). */
export async function startApiServers(sites: readonly LabSite[], host: string, now: number): Promise<ApiServers> {
  const servers = {
    rdap: serve((url) => {
      const match = /^\/domain\/([^/]+)$/.exec(url.pathname);
      return match ? rdapDomain(sites, decodeURIComponent(match[1]!), now) : undefined;
    }),
    ct: serve((url) =>
      url.pathname === '/' && url.searchParams.has('q') ? crtShSearch(sites, url.searchParams.get('q')!) : undefined,
    ),
    history: serve((url) => (url.pathname === '/cdx/search/cdx' ? cdxSearch(sites, url.searchParams) : undefined)),
    hostintel: serve((url) => {
      const match = /^\/shodan\/host\/([^/]+)$/.exec(url.pathname);
      return match ? shodanHost(sites, decodeURIComponent(match[1]!), url.searchParams.get('key'), now) : undefined;
    }),
  };
  const [rdap, ct, history, hostintel] = await Promise.all(
    [servers.rdap, servers.ct, servers.history, servers.hostintel].map((server) => listenEphemeral(server, host)),
  );
  return {
    rdap: rdap!,
    ct: ct!,
    history: history!,
    hostintel: hostintel!,
    close: async () => {
      await Promise.all(
        Object.values(servers).map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              server.closeAllConnections();
            }),
        ),
      );
    },
  };
}
