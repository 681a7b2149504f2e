import 'reflect-metadata';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { container, type InjectionToken } from 'tsyringe';
import {
  CtClient,
  DnsResolver,
  HistoryClient,
  HostIntelClient,
  HttpFetcher,
  RdapClient,
  registerSources,
  TlsInspector,
} from '../../core/evidence/sources/index.ts';
import { startLab } from '../../lab/index.ts';
import { SHARED_SITES_DIR } from '../lab/lab-fixtures.ts';

test('registerSources fills every token of a child container, and the clients reach the lab', async () => {
  const lab = await startLab({ sitesDir: SHARED_SITES_DIR });
  const child = container.createChildContainer();
  const sources = registerSources(child, lab.sourcesConfig());
  try {
    const tokens: InjectionToken<unknown>[] = [
      DnsResolver,
      RdapClient,
      TlsInspector,
      HttpFetcher,
      CtClient,
      HistoryClient,
      HostIntelClient,
    ];
    for (const token of tokens) {
      assert.ok(child.isRegistered(token), String(token));
      assert.equal(container.isRegistered(token), false, 'the root container stays untouched');
    }
    const rdap = await child.resolve(RdapClient).lookupDomain('order-hold-review.shop');
    assert.equal(rdap.ok && rdap.value.age_days, 21);
    const again = await child.resolve(RdapClient).lookupDomain('order-hold-review.shop');
    assert.equal(again.ok && again.cached, true, 'second lookup comes from the TTL cache');
  } finally {
    await sources.close();
    await lab.close();
  }
});
