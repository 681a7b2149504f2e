// The shipped brand and hosting catalogs, for unit tests of URL detectors. (Fixtures are run by the contract test.)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT_DIR } from '../../core/config.ts';
import type { BrandEntry, HostingData, Ruleset } from '../../core/engine/rules/ruleset.ts';
import { BrandCatalog, HostingCatalog } from '../../core/engine/url/catalogs.ts';

export function shippedCatalogs(): { brands: BrandCatalog; hosting: HostingCatalog } {
  const read = (file: string) => JSON.parse(readFileSync(path.join(ROOT_DIR, 'rules', file), 'utf8'));
  return {
    brands: new BrandCatalog((read('brands.json') as { brands: BrandEntry[] }).brands),
    hosting: new HostingCatalog(read('hosting.json') as HostingData),
  };
}

/** The shipped rules/scan-history.json, for tests that build the scan history store by hand. */
export function shippedScanHistoryRules(): Pick<Ruleset, 'scanHistory'> {
  return { scanHistory: JSON.parse(readFileSync(path.join(ROOT_DIR, 'rules', 'scan-history.json'), 'utf8')) };
}
