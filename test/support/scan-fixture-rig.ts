// Test support for scan-surface plugins' own unit tests (infrastructure, brand, campaign): the lab, a real scan
// history on a fresh database, and one fixture case run straight through one detector with a chosen config. The
// fixture tables themselves run in test/contract/plugins.test.ts, through the whole pipeline.
import { readFileSync } from 'node:fs';
import type { Detector, DetectorOutput } from '../../core/detector.ts';
import type { BrandCatalog, HostingCatalog } from '../../core/engine/url/catalogs.ts';
import { createKnex } from '../../core/platform/db/database.ts';
import type { ScanEvidence } from '../../core/services/scan/evidence.ts';
import { type FingerprintKind, PostgresScanHistory } from '../../core/services/scan/scan-history.ts';
import { shippedCatalogs, shippedScanHistoryRules } from './catalogs.ts';
import { createTestDatabase } from './database.ts';
import { startScanLab } from './scan-lab.ts';

export interface ScanCase {
  name: string;
  input: { surface?: string; site?: string; path?: string; url?: string };
  history?: { host: string; fingerprint: FingerprintKind; risk_level?: string; flags?: string[] }[];
  fires?: string[];
  silent?: string[];
}

export function scanCases(fixturesFile: URL): { invalid: ScanCase[]; valid: ScanCase[] } {
  const all = JSON.parse(readFileSync(fixturesFile, 'utf8')) as { invalid: ScanCase[]; valid: ScanCase[] };
  const onScan = (c: ScanCase) => c.input.surface === 'scan';
  return { invalid: all.invalid.filter(onScan), valid: all.valid.filter(onScan) };
}

function fingerprintOf(evidence: ScanEvidence, kind: FingerprintKind): string | undefined {
  if (kind === 'cert_sha256') return evidence.tls.ok ? evidence.tls.value.fingerprint_sha256 : undefined;
  if (kind === 'favicon_hash') return evidence.page.favicon ? String(evidence.page.favicon.hash) : undefined;
  return evidence.addresses[0];
}

export interface ScanRig {
  history: PostgresScanHistory;
  knex: ReturnType<typeof createKnex>;
  catalogs: { brands: BrandCatalog; hosting: HostingCatalog };
  collect(site: string, path?: string): Promise<ScanEvidence>;
  /** Seeds the case's history with the site's own fingerprints, then runs `detector` over the evidence. */
  run(c: ScanCase, detector: Detector): Promise<{ evidence: ScanEvidence; output: DetectorOutput }>;
  close(): Promise<void>;
}

export async function openScanRig(): Promise<ScanRig> {
  const lab = await startScanLab();
  const db = await createTestDatabase();
  const knex = createKnex(db.url, 2);
  await knex.migrate.latest();
  const history = new PostgresScanHistory(knex, shippedScanHistoryRules());
  const collect = (site: string, path = '/') => lab.collect(`https://${site}${path}`);
  return {
    history,
    knex,
    catalogs: shippedCatalogs(),
    collect,
    async run(c, detector) {
      const evidence = await collect(c.input.site!, c.input.path);
      for (const h of c.history ?? []) {
        const value = fingerprintOf(evidence, h.fingerprint);
        if (!value) throw new Error(`${c.name}: the site has no ${h.fingerprint} to share`);
        await history.record(
          { host: h.host, risk_level: h.risk_level ?? 'high', flags: h.flags ?? [] },
          { [h.fingerprint]: value },
        );
      }
      const output = await detector.detect({
        surface: 'scan',
        url: evidence.target.url.href,
        target: evidence.target,
        evidence,
        signal: new AbortController().signal,
      });
      return { evidence, output };
    },
    async close() {
      await lab.close();
      await knex.destroy();
      await db.drop();
    },
  };
}

/** Whether `flag` (or, for a parametrised prefix, any flag it starts) is among the findings. */
export function fired(output: DetectorOutput, flag: string, parametrised = false): boolean {
  return output.findings.some((f) => f.flag === flag || (parametrised && f.flag.startsWith(flag)));
}
