import http from 'node:http';
import type net from 'node:net';
import { type GuardedSocketOptions, openGuardedSocket } from '../net/guarded-socket.ts';
import { endpointKey, normaliseHost } from '../net/guarded-target.ts';
import { findSsrfError } from '../net/ssrf-error.ts';

/**
 * A forward proxy on loopback that Chromium sends every request through. Chromium never resolves or connects on its
 * own: each CONNECT tunnel and each plain-HTTP request is resolved once here and connected to the guard-checked
 * address, so the browser obeys the same SSRF rules (and, in lab mode, the same connect-to mapping) as the scanner.
 */

/** Header on the proxy's own 403 answers, so the capture can tell a refusal from a site's 403. */
export const REFUSED_HEADER = 'x-preflight-guard';

export interface GuardedProxyOptions extends Omit<GuardedSocketOptions, 'ca' | 'rejectUnauthorized'> {
  /** Called for every refused destination, whichever listener it came through (for logs). */
  onRefused?: (refusal: ProxyRefusal) => void;
}

export interface ProxyRefusal {
  /** The absolute URL for plain HTTP; `host:port` for a CONNECT tunnel (https, wss), whose path the proxy never sees. */
  target: string;
  host: string;
  port: number;
  reason: string;
}

/** A listener of its own for one capture, so what the guard refused is attributed to the capture that asked. */
export interface ProxySession {
  url: string;
  refusals: readonly ProxyRefusal[];
  close(): Promise<void>;
}

export interface GuardedProxy {
  /** `http://127.0.0.1:P`, for `--proxy-server`: the browser-wide default, for traffic outside any session. */
  url: string;
  openSession(): Promise<ProxySession>;
  /** Connections made upstream and destinations refused, since start, over all listeners. */
  stats(): { upstream: number; refused: number };
  close(): Promise<void>;
}

// Hop-by-hop headers (RFC 9110 §7.6.1) plus Chromium's legacy Proxy-Connection: never forwarded.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function forwardable(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (!HOP_BY_HOP.has(raw[i]!.toLowerCase())) out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

/** `host:port` of a CONNECT request line, IPv6 in brackets. */
function parseAuthority(authority: string): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(authority);
  if (!match) return undefined;
  const port = Number(match[2]);
  return port > 0 && port < 65536 ? { host: match[1]!, port } : undefined;
}

/** Per-session memory is bounded: a page can request thousands of refused URLs. */
const REFUSALS_KEPT = 200;

export async function startGuardedProxy(options: GuardedProxyOptions): Promise<GuardedProxy> {
  const sockets = new Set<net.Socket>();
  const servers = new Set<http.Server>();
  let upstream = 0;
  let refused = 0;
  const guard: GuardedSocketOptions = { connectTimeoutMs: 5_000, ...options };

  // Only guard refusals are named to the browser; other failures are a plain 502 so nothing internal leaks.
  const classify = (err: unknown): { status: number; reason: string } => {
    const ssrf = findSsrfError(err);
    if (ssrf) return { status: 403, reason: ssrf.reason };
    const code = (err as { code?: string }).code;
    return { status: 502, reason: code ?? 'upstream_error' };
  };

  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };

  const connectUpstream = async (host: string, port: number): Promise<net.Socket> => {
    const { socket } = await openGuardedSocket({ hostname: host, port, tls: false }, guard);
    upstream++;
    track(socket);
    return socket;
  };

  const handleRequest = (req: http.IncomingMessage, res: http.ServerResponse, refuse: Refuse) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      // Origin-form: someone talking to the proxy as if it were a site. Not a proxy request.
      res.writeHead(400, { 'content-type': 'text/plain' }).end('proxy requests only\n');
      return;
    }
    if (target.protocol !== 'http:') {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('only http:// is proxied in the clear\n');
      return;
    }
    const port = target.port ? Number(target.port) : 80;
    connectUpstream(target.hostname, port).then(
      (socket) => {
        const upstreamReq = http.request({
          createConnection: () => socket,
          method: req.method,
          path: `${target.pathname}${target.search}`,
          headers: [...forwardable(req.rawHeaders), 'Connection', 'close'],
          setHost: false,
        });
        upstreamReq.on('response', (upstreamRes) => {
          res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.statusMessage, forwardable(upstreamRes.rawHeaders));
          upstreamRes.pipe(res);
          upstreamRes.on('error', () => res.destroy());
        });
        upstreamReq.on('error', () => {
          if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('upstream error\n');
          else res.destroy();
        });
        res.on('close', () => upstreamReq.destroy());
        req.pipe(upstreamReq);
      },
      (err: unknown) => {
        const { status, reason } = classify(err);
        if (status === 403) refuse({ target: target.href, host: normaliseHost(target.hostname), port, reason });
        res.writeHead(status, { 'content-type': 'text/plain', [REFUSED_HEADER]: status === 403 ? reason : 'error' });
        res.end(status === 403 ? `refused by the SSRF guard: ${reason}\n` : 'upstream unreachable\n');
      },
    );
  };

  const handleConnect = (req: http.IncomingMessage, client: net.Socket, head: Buffer, refuse: Refuse) => {
    const authority = parseAuthority(req.url ?? '');
    client.on('error', () => client.destroy());
    if (!authority) {
      client.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const { host, port } = authority;
    connectUpstream(host, port).then(
      (socket) => {
        if (client.destroyed) {
          socket.destroy();
          return;
        }
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) socket.write(head);
        socket.on('error', () => client.destroy());
        client.on('close', () => socket.destroy());
        socket.on('close', () => client.destroy());
        socket.pipe(client);
        client.pipe(socket);
      },
      (err: unknown) => {
        const { status, reason } = classify(err);
        const name = normaliseHost(host);
        if (status === 403) refuse({ target: endpointKey(name, port), host: name, port, reason });
        const line = status === 403 ? '403 Forbidden' : '502 Bad Gateway';
        client.end(
          `HTTP/1.1 ${line}\r\n${REFUSED_HEADER}: ${status === 403 ? reason : 'error'}\r\n` +
            'Connection: close\r\nContent-Length: 0\r\n\r\n',
        );
      },
    );
  };

  const listen = async (refuse: Refuse): Promise<{ server: http.Server; url: string }> => {
    const server = http.createServer();
    servers.add(server);
    server.on('connection', track);
    server.on('request', (req, res) => handleRequest(req, res, refuse));
    server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) =>
      handleConnect(req, client, head, refuse),
    );
    // Without an upgrade listener Node drops the socket silently; say why instead. Chromium tunnels WebSockets
    // through CONNECT, so this only answers clients that are not the browser.
    server.on('upgrade', (_req, socket: net.Socket) => {
      socket.end('HTTP/1.1 501 Not Implemented\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    return { server, url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}` };
  };

  const closeServer = (server: http.Server) =>
    new Promise<void>((resolve) => {
      servers.delete(server);
      server.close(() => resolve());
      // Keep-alive connections would hold close() open; a closed session has no business finishing them.
      server.closeAllConnections();
    });

  const record = (refusal: ProxyRefusal) => {
    refused++;
    options.onRefused?.(refusal);
  };
  const base = await listen(record);

  return {
    url: base.url,
    openSession: async () => {
      const refusals: ProxyRefusal[] = [];
      const { server, url } = await listen((refusal) => {
        record(refusal);
        if (refusals.length < REFUSALS_KEPT) refusals.push(refusal);
      });
      return { url, refusals, close: () => closeServer(server) };
    },
    stats: () => ({ upstream, refused }),
    close: async () => {
      const closing = [...servers].map(closeServer);
      for (const socket of sockets) socket.destroy();
      await Promise.all(closing);
    },
  };
}

type Refuse = (refusal: ProxyRefusal) => void;
