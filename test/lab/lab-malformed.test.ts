// Issue 11 item 9: one malformed request (`GET //?q=x` on the CT endpoint) used to throw in new URL() and take the
// whole lab down. Every lab HTTP server must answer malformed request targets with a 4xx and stay up. The lab runs
// in this process, so a throw in a handler would end the test run itself.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import tls from 'node:tls';
import { type Lab, startLab } from '../../lab/index.ts';
import { SHARED_SITES_DIR } from './lab-fixtures.ts';

const MALFORMED = [
  '//?q=x',
  '//',
  '///evil.example/x',
  '/%ff',
  '/domain/%ff',
  '/domain/%E0%A4%A',
  '/shodan/host/%ff?key=x',
  '/cdx/search/cdx?url=%ff&output=json',
  '/?q=%ff',
  '*',
  'x',
  'http://[::1/',
];
const SITE = 'harborviewcu.org';

/** One raw request; resolves with the status of the answer (0 when the server closed without one). */
function rawStatus(connect: () => net.Socket, target: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect();
    let out = '';
    socket.on('data', (d) => {
      out += d.toString('latin1');
    });
    const done = () => resolve(Number(/^HTTP\/1\.[01] (\d{3})/.exec(out)?.[1] ?? 0));
    socket.on('close', done);
    socket.on('error', done);
    socket.write(`GET ${target} HTTP/1.1\r\nHost: ${SITE}\r\nConnection: close\r\n\r\n`);
  });
}

describe('lab servers survive malformed requests', () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab({ sitesDir: SHARED_SITES_DIR });
  });
  after(() => lab.close());

  const endpoints = (): [string, () => net.Socket][] => {
    const plain = (hostPort: string) => () => {
      const u = new URL(hostPort.startsWith('http') ? hostPort : `http://${hostPort}`);
      return net.connect(Number(u.port), u.hostname);
    };
    const https = lab.endpoints.https.split(':');
    return [
      ['rdap', plain(lab.endpoints.rdap)],
      ['ct', plain(lab.endpoints.ct)],
      ['history', plain(lab.endpoints.history)],
      ['hostintel', plain(lab.endpoints.hostintel)],
      ['web http', plain(lab.endpoints.http)],
      [
        'web https',
        () => tls.connect({ host: https[0], port: Number(https[1]), servername: SITE, rejectUnauthorized: false }),
      ],
    ];
  };

  it('every HTTP server answers each malformed target without a 5xx (or drops it) and keeps serving', async () => {
    for (const [name, connect] of endpoints()) {
      for (const target of MALFORMED) {
        const status = await rawStatus(connect, target);
        // A parameter the lab can read leniently (`q=%ff`) may be answered normally; nothing is a 5xx or a crash.
        assert.ok(status === 0 || status < 500, `${name} ${target}: ${status}`);
      }
      // Still up: a well-formed request is answered.
      const status = await rawStatus(connect, name === 'ct' ? '/?q=harborviewcu.org' : '/');
      assert.ok(status > 0 && status < 500, `${name} answers after the malformed ones (${status})`);
    }
  });

  it('GET //?q=x on the CT endpoint is a 400', async () => {
    const [, connect] = endpoints().find(([n]) => n === 'ct')!;
    assert.equal(await rawStatus(connect, '//?q=x'), 400);
    assert.equal(await rawStatus(connect, '/?q=harborviewcu.org'), 200);
  });
});
