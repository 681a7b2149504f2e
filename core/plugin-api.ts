/**
 * The plugin API: the only module of core a plugin (plugins/**, tests aside) may import, enforced by Biome's
 * noRestrictedImports (biome.json). It carries the detector contract, the DI tokens a plugin may ask for in `deps`,
 * the evidence types it reads, and the few pure helpers core shares with plugins. Plugins never see weights,
 * scores or decisions. Adding an export here widens the contract: keep it to what plugins need.
 */

export { ROOT_DIR } from './config.ts';
// Contract: defineDetector({ meta, deps, create }), what detect() sees and returns, the plugin index entry.
export type { AgentScreen, AgentScreenFinding, DetectionContext, DetectorOutput, Finding } from './detector.ts';
export { defineDetector } from './detector.ts';
export type { PluginModule, PluginProvides } from './engine/pipeline/plugin-catalog.ts';
// DI tokens (what `deps` may name) and the data they hand out.
export { InjectionRules } from './engine/rules/injection-rules.ts';
export type { BrandEntry } from './engine/rules/ruleset.ts';
export type { FormField, HtmlDocument, HtmlForm } from './engine/text/html-document.ts';
export { MAX_HTML_CHARS, readHtml } from './engine/text/html-document.ts';
export { htmlToText } from './engine/text/html-text.ts';
export { type HtmlTokenHandler, MAX_TAG_CHARS, tokenizeHtml } from './engine/text/html-tokenizer.ts';
export { asciiLowerCase } from './engine/text/normalise.ts';
export { brandOwning, isBrandAccountTenant } from './engine/url/brand-ownership.ts';
export type { FreeHostingMatch } from './engine/url/catalogs.ts';
export { BrandCatalog, HostingCatalog } from './engine/url/catalogs.ts';
export type { Target } from './engine/url/target.ts';
export { parseTarget } from './engine/url/target.ts';
// Pure helpers core shares with plugins (destination parser, brand ownership, page text and the linear HTML reader,
// JSON leaves, attachments, the vendor-challenge table the browser capture also reads).
export type { VendorChallenge } from './evidence/browser/vendor-challenge.ts';
export { findVendorChallenge } from './evidence/browser/vendor-challenge.ts';
export type { CtEntry } from './evidence/sources/ct-client.ts';
export { CtClient } from './evidence/sources/ct-client.ts';
export type { HistoryCapture } from './evidence/sources/history-client.ts';
export { HistoryClient } from './evidence/sources/history-client.ts';
export type { HostIntelResult, HostService } from './evidence/sources/host-intel-client.ts';
export type { FetchResult } from './evidence/sources/http-fetcher.ts';
export type { Lookup } from './evidence/sources/lookup.ts';
export { decodeHtmlAttribute } from './evidence/sources/page-redirects.ts';
export type { RdapDomain } from './evidence/sources/rdap-client.ts';
export type { TlsFacts } from './evidence/sources/tls-inspector.ts';
export { stringLeaves } from './services/checks/json-leaves.ts';
export { attachmentRisk } from './services/email/attachment-risk.ts';
export type { ScanEvidence, ScanHistoryMatch } from './services/scan/evidence.ts';
export { ScanHistory } from './services/scan/evidence.ts';
