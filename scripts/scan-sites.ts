// Scans every site of ../shared/eval/phishing/sites against a lab, without and then with Chromium, and prints a table:
// label, expected flags found, score and risk, whether it is right, and the time of each scan (source caches off).
// Usage: node --import tsx --import reflect-metadata scripts/scan-sites.ts
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createPreflight } from '../app/index.ts';
import { loadConfig, ROOT_DIR } from '../core/config.ts';
import { ScanService } from '../core/services/scan/scan-service.ts';
import { scanTargetOf } from '../server/requests/scan.ts';

const sites = path.join(ROOT_DIR, '..', 'shared', 'eval', 'phishing', 'sites');
const labels = JSON.parse(readFileSync(path.join(sites, '..', 'sites.json'), 'utf8'));
const config = loadConfig();
const app = await createPreflight({ ...config, labSitesDir: sites, sources: { ...config.sources, cacheTtlMs: 0 } });
const scans = app.container.resolve(ScanService);
const caller = { workspaceId: null, campaignTaggingEnabled: false, actor: 'table', requestId: 'table' };
// Warm-up: the first capture launches Chromium.
await scans.scan(
  scanTargetOf('northwind-outfitters.com'),
  { force_scan: true, browser: true, unmetered: true },
  caller,
);
console.log(
  '| site | label | expected flags present | score | risk | ok | ms without browser | ms with Chromium | hop kinds (browser) | screenshot |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const h of readdirSync(sites).sort()) {
  let t = performance.now();
  await scans.scan(scanTargetOf(h), { force_scan: true, browser: false, unmetered: true }, caller);
  const plainMs = performance.now() - t;
  t = performance.now();
  const deep = await scans.scan(scanTargetOf(h), { force_scan: true, browser: true, unmetered: true }, caller);
  const deepMs = performance.now() - t;
  const { label, expect_flags } = labels[h];
  const missing = expect_flags.filter((f: string) => !deep.flags.includes(f));
  const dangerous = ['high', 'critical'].includes(deep.risk_level);
  const ok = dangerous === (label === 'phishing') && missing.length === 0 && deep.score_breakdown.reconciles;
  const v = deep.detailed_results.visual as { data: { screenshot_url?: string } };
  console.log(
    `| ${h} | ${label} | ${expect_flags.length - missing.length}/${expect_flags.length} | ${deep.score} | ${deep.risk_level} | ${ok ? 'yes' : 'NO'} | ${plainMs.toFixed(0)} | ${deepMs.toFixed(0)} | ${deep.tabs.redirect_timeline.map((s) => s.kind).join(' → ')} | ${v.data.screenshot_url ? 'yes' : 'no'} |`,
  );
}
await app.close();
