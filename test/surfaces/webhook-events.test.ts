// scan.completed and scan.failed reach webhook endpoints as deliveries (the delivery itself is tested in webhooks).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runDueJobs } from '../../core/services/jobs/worker.ts';
import { writeSites } from '../lab/lab-fixtures.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

describe('scan events as webhook deliveries', () => {
  let t: TestServer;
  let admin: string;
  let sites: Awaited<ReturnType<typeof writeSites>>;

  before(async () => {
    sites = await writeSites({ 'quiet-harbor-books.com': {} });
    t = await startTestServer({ labSitesDir: sites.dir });
    admin = await t.key('acme', 'admin');
  });
  after(async () => {
    await t.close();
    await sites.cleanup();
  });

  it('a finished scan and a failed scan job each queue a signed delivery with their data', async () => {
    // A documentation address: the guard refuses it, so attempts end in dead_letter without touching a network.
    const ep = await t.request('POST', '/webhooks/endpoints', {
      key: admin,
      body: { url: 'http://192.0.2.10/hooks', event_types: ['scan.completed', 'scan.failed'] },
    });
    assert.equal(ep.status, 201);
    const scan = await t.request('POST', '/v1/scan', { key: admin, body: { domain: 'quiet-harbor-books.com' } });
    assert.equal(scan.status, 200);
    const job = await t.request('POST', '/scan_async', { key: admin, body: { domain: 'no-such-shop-4471.com' } });
    assert.equal(job.status, 202);
    await runDueJobs(t.app, { browser: false });
    const jobRead = await t.request('GET', `/scan/jobs/${job.body.scan_id}`, { key: admin });
    assert.equal(jobRead.body.status, 'failed', JSON.stringify(jobRead.body));

    const list = await t.request('GET', '/webhooks/deliveries', { key: admin });
    const byType = (type: string) => list.body.deliveries.find((d: { event_type: string }) => d.event_type === type);
    const completed = await t.request('GET', `/webhooks/deliveries/${byType('scan.completed').delivery_id}`, {
      key: admin,
    });
    assert.equal(completed.body.payload.type, 'scan.completed');
    assert.equal(completed.body.payload.data.scan_id, scan.body.scan_id);
    assert.equal(completed.body.payload.data.evidence_pack.sha256, scan.body.tabs.detection.evidencepack.sha256);
    const failed = await t.request('GET', `/webhooks/deliveries/${byType('scan.failed').delivery_id}`, { key: admin });
    assert.deepEqual(
      { ...failed.body.payload.data, actor: undefined },
      {
        scan_id: job.body.scan_id,
        target_url: 'https://no-such-shop-4471.com/',
        status: 'failed',
        error: jobRead.body.error,
        actor: undefined,
      },
    );
    for (const d of [completed.body, failed.body]) {
      assert.equal(d.status, 'dead_letter');
      assert.match(d.last_error, /refused by the SSRF guard/);
    }
  });
});
