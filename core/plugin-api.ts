/**
 * The plugin API: the only module of core a plugin (plugins/**, tests aside) may import, enforced by Biome's
 * noRestrictedImports (biome.json). It carries the detector contract, the DI tokens a plugin may ask for in `deps`,
 * the evidence types it reads, and the few pure helpers core shares with plugins. Plugins never see weights,
 * scores or decisions. Adding an export here widens the contract: keep it to what plugins need.
 */

// Pure helpers core shares with plugins (destination parser, brand ownership, page text and the linear HTML reader,
// JSON leaves, attachments, the vendor-challenge table the browser capture also reads).
export type { VendorChallenge } from './browser/vendor-challenge.ts';
export { findVendorChallenge } from './browser/vendor-challenge.ts';
export { stringLeaves } from './checks/json-leaves.ts';
export { ROOT_DIR } from './config.ts';
// Contract: defineDetector({ meta, deps, create }), what detect() sees and returns, the plugin index entry.
export type { AgentScreen, AgentScreenFinding, DetectionContext, DetectorOutput, Finding } from './detector.ts';
export { defineDetector } from './detector.ts';
export { attachmentRisk } from './email/attachment-risk.ts';
export type { PluginModule, PluginProvides } from './pipeline/plugin-catalog.ts';
// DI tokens (what `deps` may name) and the data they hand out.
export { InjectionRules } from './rules/injection-rules.ts';
export type { BrandEntry } from './rules/ruleset.ts';
export type { ScanEvidence, ScanHistoryMatch } from './scan/evidence.ts';
export { ScanHistory } from './scan/evidence.ts';
export type { CtEntry } from './sources/ct-client.ts';
export { CtClient } from './sources/ct-client.ts';
export type { HistoryCapture } from './sources/history-client.ts';
export { HistoryClient } from './sources/history-client.ts';
export type { HostIntelResult, HostService } from './sources/host-intel-client.ts';
export type { FetchResult } from './sources/http-fetcher.ts';
export type { Lookup } from './sources/lookup.ts';
export { decodeHtmlAttribute } from './sources/page-redirects.ts';
export type { RdapDomain } from './sources/rdap-client.ts';
export type { TlsFacts } from './sources/tls-inspector.ts';
export type { FormField, HtmlDocument, HtmlForm } from './text/html-document.ts';
export { MAX_HTML_CHARS, readHtml } from './text/html-document.ts';
export { htmlToText } from './text/html-text.ts';
export { type HtmlTokenHandler, MAX_TAG_CHARS, tokenizeHtml } from './text/html-tokenizer.ts';
export { brandOwning, isBrandAccountTenant } from './url/brand-ownership.ts';
export type { FreeHostingMatch } from './url/catalogs.ts';
export { BrandCatalog, HostingCatalog } from './url/catalogs.ts';
export type { Target } from './url/target.ts';
export { parseTarget } from './url/target.ts';
