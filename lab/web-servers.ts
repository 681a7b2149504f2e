import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import { listenEphemeral } from './listen.ts';
import type { LabPki, PemPair } from './pki.ts';
import type { LabSite } from './site-model.ts';
import { hostFromHeader, respond, type SiteDirectory } from './site-responder.ts';

export interface WebServers {
  http: string;
  https: string;
  /** IP-literal sites get no SNI from clients (RFC 6066), so each has its own HTTPS listener. */
  ipLiteralHttps: Map<string, string>;
  close(): Promise<void>;
}

function handler(siteFor: (req: http.IncomingMessage) => LabSite | undefined) {
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    const site = siteFor(req);
    if (!site) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`no lab site for host ${req.headers.host ?? '(none)'}\n`);
      return;
    }
    respond(site, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  };
}

function closeServer(server: http.Server | https.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

export async function startWebServers(
  directory: SiteDirectory,
  certificates: Map<string, Promise<PemPair>>,
  pki: LabPki,
  host: string,
): Promise<WebServers> {
  const byHost = (req: http.IncomingMessage) => directory.find(hostFromHeader(req.headers.host));
  const plain = http.createServer(handler(byHost));

  const contexts = new Map<string, Promise<tls.SecureContext>>();
  const contextFor = (site: LabSite) => {
    let context = contexts.get(site.hostname);
    if (!context) {
      context = certificates
        .get(site.hostname)!
        .then((pair) => tls.createSecureContext({ cert: pair.chain, key: pair.key }));
      contexts.set(site.hostname, context);
    }
    return context;
  };
  // Clients that send an unknown name (or none) get a certificate that matches nothing: a real mismatch.
  const fallback = await pki.leaf({
    subjectCn: 'unknown-host.lab.invalid',
    issuerCn: 'Preflight Lab Fallback CA',
    sans: ['unknown-host.lab.invalid'],
    notBefore: new Date(Date.now() - 86_400_000),
    notAfter: new Date(Date.now() + 365 * 86_400_000),
    serial: '7f01',
    selfSigned: false,
  });
  const secure = https.createServer(
    {
      cert: fallback.chain,
      key: fallback.key,
      SNICallback: (servername, callback) => {
        const site = directory.find(servername);
        if (!site) return callback(null, undefined);
        contextFor(site).then(
          (context) => callback(null, context),
          (err: Error) => callback(err, undefined),
        );
      },
    },
    handler((req) => directory.find((req.socket as tls.TLSSocket).servername || undefined) ?? byHost(req)),
  );

  const ipServers: https.Server[] = [];
  const ipLiteralHttps = new Map<string, string>();
  const [httpEndpoint, httpsEndpoint] = await Promise.all([
    listenEphemeral(plain, host),
    listenEphemeral(secure, host),
  ]);
  for (const site of directory.sites.filter((s) => s.ipLiteral)) {
    const pair = await certificates.get(site.hostname)!;
    const server = https.createServer(
      { cert: pair.chain, key: pair.key },
      handler(() => site),
    );
    ipServers.push(server);
    ipLiteralHttps.set(site.hostname, await listenEphemeral(server, host));
  }

  return {
    http: httpEndpoint,
    https: httpsEndpoint,
    ipLiteralHttps,
    close: async () => {
      await Promise.all([plain, secure, ...ipServers].map(closeServer));
    },
  };
}
