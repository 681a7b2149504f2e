import 'reflect-metadata';
import { cpSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { container, type DependencyContainer } from 'tsyringe';
import { ROOT_DIR } from '../../core/config.ts';
import type { Detector, DetectorOutput } from '../../core/detector.ts';
import { parseTarget } from '../../core/engine/url/target.ts';
import {
  BrowserCapturer,
  type BrowserCapturer as Capturer,
  NoBrowser,
} from '../../core/evidence/browser/browser-capture.ts';
import { createBrowserCapturer } from '../../core/evidence/browser/index.ts';
import { registerSources, type SourceSet } from '../../core/evidence/sources/index.ts';
import type { ScanEvidence } from '../../core/services/scan/evidence.ts';
import { EvidenceCollector } from '../../core/services/scan/evidence-collector.ts';
import { type Lab, startLab } from '../../lab/index.ts';

/** Every `plugins/<id>/fixtures/sites/<host>/` folder, by host. Two plugins may not define the same host. */
export function pluginFixtureSites(): Map<string, string> {
  const sites = new Map<string, string>();
  const pluginsDir = path.join(ROOT_DIR, 'plugins');
  for (const id of readdirSync(pluginsDir)) {
    const dir = path.join(pluginsDir, id, 'fixtures', 'sites');
    if (!existsSync(dir)) continue;
    for (const host of readdirSync(dir)) {
      const other = sites.get(host);
      if (other) throw new Error(`fixture site ${host} is defined twice: ${other} and ${path.join(dir, host)}`);
      sites.set(host, path.join(dir, host));
    }
  }
  return sites;
}

export interface ScanLab {
  lab: Lab;
  sources: SourceSet;
  /** A container holding the lab-wired source clients, for detectors to resolve their deps from. */
  container: DependencyContainer;
  collect(url: string, options?: { browser?: boolean }): Promise<ScanEvidence>;
  /** Collects what a scan of `https://<site><path>` sees and runs one detector over it, on the scan surface. */
  detect(detector: Detector, site: string, path?: string): Promise<DetectorOutput>;
  close(): Promise<void>;
}

/**
 * A lab serving the given site folders (default: every plugin's fixture sites plus the shared eval sites), with
 * the real source clients and evidence collector pointed at it: what a scan sees, offline.
 */
export async function startScanLab(
  options: { sites?: Map<string, string>; browser?: boolean; withSharedSites?: boolean } = {},
): Promise<ScanLab> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'preflight-scan-lab-'));
  const sites = options.sites ?? pluginFixtureSites();
  for (const [host, source] of sites) cpSync(source, path.join(dir, host), { recursive: true });
  if (options.withSharedSites !== false) {
    const shared = path.join(ROOT_DIR, '..', 'shared', 'eval', 'phishing', 'sites');
    for (const host of readdirSync(shared)) {
      if (!sites.has(host)) cpSync(path.join(shared, host), path.join(dir, host), { recursive: true });
    }
  }
  const lab = await startLab({ sitesDir: dir });
  const scope = container.createChildContainer();
  const sources = registerSources(scope, lab.sourcesConfig({ cacheTtlMs: 0 }));
  const sourcesConfig = lab.sourcesConfig({ cacheTtlMs: 0 });
  const browser: Capturer = options.browser
    ? createBrowserCapturer({ sources: sourcesConfig })
    : new NoBrowser('no browser in this test');
  scope.registerInstance(BrowserCapturer, browser);
  const collector = scope.resolve(EvidenceCollector);
  const collect = (url: string, o: { browser?: boolean } = {}) =>
    collector.collect(parseTarget(url), { browser: o.browser ?? Boolean(options.browser) });
  return {
    lab,
    sources,
    container: scope,
    collect,
    async detect(detector, site, path = '/') {
      const url = `https://${site}${path}`;
      const evidence = await collect(url);
      return detector.detect({
        surface: 'scan',
        url,
        target: evidence.target,
        evidence,
        signal: new AbortController().signal,
      });
    },
    async close() {
      await browser.close();
      await sources.close();
      await lab.close();
    },
  };
}
