import { Agent, type buildConnector } from 'undici';
import { type GuardedSocketOptions, openGuardedSocket } from './guarded-socket.ts';

export interface GuardedDispatcherOptions extends GuardedSocketOptions {
  /** Passed to undici's Agent (keep-alive, pipelining…); `connect` is always the guard's. */
  agent?: Omit<Agent.Options, 'connect'>;
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** An undici connector that only ever opens sockets to guard-checked addresses; runs again for every redirect hop. */
export function createGuardedConnector(options: GuardedSocketOptions): buildConnector.connector {
  return (connect, callback) => {
    const port = connect.port ? Number(connect.port) : (DEFAULT_PORTS[connect.protocol] ?? 80);
    openGuardedSocket({ hostname: connect.hostname, port, tls: connect.protocol === 'https:' }, options).then(
      ({ socket }) => callback(null, socket),
      (err: Error) => callback(err, null),
    );
  };
}

/** An undici dispatcher whose every connection goes through the SSRF guard. */
export function createGuardedDispatcher(options: GuardedDispatcherOptions = {}): Agent {
  return new Agent({ ...options.agent, connect: createGuardedConnector(options) });
}
