// The scanner as a user meets it: a service on a lab with its in-process worker, rate limits at the spec's
// defaults, the bulk CLI following jobs to a table, and the PDF report.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT_DIR } from '../../core/config.ts';
import { chromiumAvailable, chromiumPath } from '../../core/evidence/browser/index.ts';
import { freePort } from '../../core/platform/db/embedded-postgres.ts';
import { createTestDatabase } from '../support/database.ts';
import { embeddedEnv, runCli, startService } from '../support/processes.ts';

const SITES = path.join(ROOT_DIR, '..', 'shared', 'eval', 'phishing', 'sites');

/**
 * Rate limits count in fixed one-minute windows; a burst that straddles a minute boundary would start counting
 * afresh half-way. Start bursts early in a minute (a precondition wait, not a timing assertion).
 */
async function awayFromMinuteEdge(): Promise<void> {
  const second = new Date().getUTCSeconds();
  if (second >= 45) await new Promise((r) => setTimeout(r, (61 - second) * 1000));
}

describe('scanner service', () => {
  let base: string;
  let env: NodeJS.ProcessEnv;
  let key: string;
  let stop: () => Promise<number>;
  let drop: () => Promise<void>;

  before(async () => {
    const db = await createTestDatabase();
    drop = db.drop;
    env = {
      ...embeddedEnv(mkdtempSync(path.join(os.tmpdir(), 'preflight-svc-'))),
      DATABASE_URL: db.url,
      PREFLIGHT_LAB: SITES,
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
    };
    const service = await startService(env);
    stop = service.stop;
    base = `http://127.0.0.1:${service.port}`;
    const created = await runCli(['keys', 'create', '--workspace', 'svc'], env);
    key = created.stdout.trim().split('\n').at(-1)!;
  });
  after(async () => {
    await stop();
    await drop();
  });

  it('anonymous callers get 5 requests a minute per route, with X-RateLimit-Remaining on every answer', async () => {
    await awayFromMinuteEdge();
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${base}/v1/scan`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      assert.equal(res.status, 400, 'the request itself is bad, and still counted');
      remaining.push(res.headers.get('x-ratelimit-remaining'));
    }
    assert.deepEqual(remaining, ['4', '3', '2', '1', '0']);
    const sixth = await fetch(`${base}/v1/scan`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    assert.equal(sixth.status, 429);
    assert.equal(sixth.headers.get('x-ratelimit-remaining'), '0');
    assert.ok(Number(sixth.headers.get('retry-after')) > 0);
    assert.equal(((await sixth.json()) as { error: string }).error, 'rate_limited');
  });

  it('an authenticated workspace gets 60 a minute', async () => {
    await awayFromMinuteEdge();
    let last: Response | undefined;
    for (let i = 0; i < 60; i++) {
      last = await fetch(`${base}/scan/jobs?limit=1`, { headers: { Authorization: `Api-Key ${key}` } });
      assert.equal(last.status, 200);
    }
    assert.equal(last?.headers.get('x-ratelimit-remaining'), '0');
    const over = await fetch(`${base}/scan/jobs?limit=1`, { headers: { Authorization: `Api-Key ${key}` } });
    assert.equal(over.status, 429);
  });

  it('npx preflight bulk submits a list and follows the jobs (in-process worker) to a results table', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'preflight-bulk-'));
    const file = path.join(dir, 'domains.txt');
    writeFileSync(file, '# lab sites\nparcel-redelivery-center.com\nnorthwind-outfitters.com\nnot a domain\n');
    const out = await runCli(['bulk', file, '--url', base, '--key', key, '--timeout', '120'], env);
    assert.equal(out.code, 0, out.stderr);
    const lines = out.stdout.trim().split('\n');
    assert.match(lines[0]!, /^domain\s+scan_id\s+status\s+risk\s+score/);
    const row = (d: string) => lines.find((l) => l.startsWith(d)) ?? '';
    assert.match(row('parcel-redelivery-center.com'), /\bdone\s+(high|critical)\b/);
    assert.match(row('northwind-outfitters.com'), /\bdone\s+low\b/);
    assert.match(row('not a domain'), /rejected.*invalid_domain/);
  });

  const browser = chromiumAvailable(chromiumPath());
  it('GET /reports/<id> is a PDF of the scan', {
    skip: browser ? false : 'chromium not installed: reports need it (the route answers 503 browser_unavailable)',
  }, async () => {
    const res = await fetch(`${base}/v1/scan`, {
      method: 'POST',
      headers: { Authorization: `Api-Key ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ domain: 'parcel-redelivery-center.com' }),
    });
    const { scan_id } = (await res.json()) as { scan_id: number };
    const pdf = await fetch(`${base}/reports/${scan_id}`, { headers: { Authorization: `Api-Key ${key}` } });
    assert.equal(pdf.status, 200);
    assert.equal(pdf.headers.get('content-type'), 'application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    assert.equal(bytes.subarray(0, 5).toString(), '%PDF-');
  });
});
