import net from 'node:net';
import tls from 'node:tls';
import { type GuardedTarget, type GuardOptions, resolveGuardedTarget } from './guarded-target.ts';

export interface TlsTrust {
  /** Extra roots (the lab CA). Node's bundled roots stay trusted too. */
  ca?: string | readonly string[];
  /** Page fetches inspect hostile sites whose certificates are often bad; callers choose. Default true. */
  rejectUnauthorized?: boolean;
}

export interface GuardedSocketOptions extends GuardOptions, TlsTrust {
  connectTimeoutMs?: number;
}

export interface OpenSocketRequest {
  hostname: string;
  port: number;
  tls: boolean;
  signal?: AbortSignal;
  alpn?: string[];
}

// Parsing Node's ~140 bundled roots costs ~25 ms: build the context once per options object, not per connection.
const contexts = new WeakMap<TlsTrust, tls.SecureContext>();

function secureContextFor(options: TlsTrust): tls.SecureContext | undefined {
  if (!options.ca) return undefined;
  let context = contexts.get(options);
  if (!context) {
    context = tls.createSecureContext({
      ca: [...tls.rootCertificates, ...(typeof options.ca === 'string' ? [options.ca] : options.ca)],
    });
    contexts.set(options, context);
  }
  return context;
}

/** Open a TCP or TLS socket to the guard-checked address; SNI and certificate checks use the name asked for. */
export async function openGuardedSocket(
  request: OpenSocketRequest,
  options: GuardedSocketOptions,
): Promise<{ socket: net.Socket | tls.TLSSocket; target: GuardedTarget }> {
  const target = await resolveGuardedTarget(request.hostname, request.port, options, request.signal);
  const socket = request.tls
    ? tls.connect({
        host: target.address,
        port: target.port,
        // RFC 6066 forbids IP literals in SNI.
        servername: net.isIP(target.host) ? undefined : target.host,
        secureContext: secureContextFor(options),
        rejectUnauthorized: options.rejectUnauthorized ?? true,
        ALPNProtocols: request.alpn ?? ['http/1.1'],
        checkServerIdentity: (_host, cert) => tls.checkServerIdentity(target.host, cert),
      })
    : net.connect({ host: target.address, port: target.port });

  return await new Promise((resolve, reject) => {
    const fail = (err: Error) => {
      cleanup();
      socket.destroy();
      reject(err);
    };
    const onAbort = () => fail(Object.assign(new Error('connect aborted'), { code: 'ABORT_ERR' }));
    const timer = setTimeout(
      () => fail(Object.assign(new Error(`connect timeout to ${target.host}`), { code: 'ETIMEDOUT' })),
      options.connectTimeoutMs ?? 10_000,
    );
    const onReady = () => {
      cleanup();
      resolve({ socket, target });
    };
    function cleanup() {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      socket.off('error', fail);
      socket.off(request.tls ? 'secureConnect' : 'connect', onReady);
    }
    if (request.signal?.aborted) return onAbort();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('error', fail);
    socket.once(request.tls ? 'secureConnect' : 'connect', onReady);
  });
}
