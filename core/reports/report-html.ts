import type { ScanResult } from '../services/scan/scan-service.ts';

/** Everything one report page needs; the loader (scan-report.ts) fills it from the database. */
export interface ReportInput {
  /** The stored result. Typed as the current shape, but read defensively: rows written by older versions may lack fields. */
  result: ScanResult;
  /** The PNG from scan_screenshots, when the scan took one and it is still stored. */
  screenshotPng?: Buffer;
  /** Plain-language meaning of a flag (the plugin catalog's declaration); undefined for flags no plugin declares. */
  describe(flag: string): string | undefined;
  generatedAt?: Date;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Every scanned value is attacker-controlled (hosts, URLs, page text): nothing reaches the markup unescaped. */
export function escapeHtml(value: unknown): string {
  const text = value === undefined || value === null ? '' : typeof value === 'string' ? value : String(value);
  return text.replace(/[&<>"'`]/g, (c) => ESCAPES[c] ?? c);
}

/** Tagged template that escapes interpolations unless they are already-built markup. */
class Markup {
  constructor(readonly html: string) {}
  toString(): string {
    return this.html;
  }
}
type Part = Markup | string | number | boolean | null | undefined | readonly Part[];

function h(strings: TemplateStringsArray, ...parts: Part[]): Markup {
  let out = strings[0] ?? '';
  parts.forEach((part, i) => {
    out += render(part) + (strings[i + 1] ?? '');
  });
  return new Markup(out);
}

function render(part: Part): string {
  if (part instanceof Markup) return part.html;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(part);
}

// Defensive readers: a stored jsonb from another version can hold anything at any path.
function at(root: unknown, path: string): unknown {
  let cur: unknown = root;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const strings = (v: unknown): string[] => arr(v).filter((x): x is string => typeof x === 'string');
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
/** A table cell's text whatever the stored type; objects are shown as JSON rather than "[object Object]". */
const cell = (v: unknown): string =>
  v === undefined || v === null ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** Where each evidence list lives and what to call it; any other `*_evidence` list is still shown under its path. */
const EVIDENCE_SOURCES: [path: string, label: string][] = [
  ['brand.data.impersonation_evidence', 'Brand impersonation'],
  ['ssl.data.ct_evidence', 'Certificate transparency'],
  ['ssl.data.host_context_evidence', 'Host context'],
  ['whois.data.domain_history_evidence', 'Public web history'],
  ['geolocation.data.hosting_evidence', 'Hosting'],
  ['infrastructure.data.enrichment_evidence', 'Infrastructure enrichment'],
];

/** Every string list under a key ending in `_evidence`, known paths first with their labels. */
export function evidenceLines(detailed: unknown): { label: string; lines: string[] }[] {
  const found = new Map<string, string[]>();
  const walk = (node: unknown, path: string, depth: number) => {
    if (depth > 6 || node === null || typeof node !== 'object' || Array.isArray(node)) return;
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      const here = path ? `${path}.${key}` : key;
      if (key.endsWith('_evidence') && Array.isArray(value)) {
        const lines = strings(value);
        if (lines.length > 0) found.set(here, lines);
      } else walk(value, here, depth + 1);
    }
  };
  walk(detailed, '', 0);
  const ordered: [string, string[]][] = [];
  for (const [path, label] of EVIDENCE_SOURCES) {
    const lines = found.get(path);
    if (lines) ordered.push([label, lines]);
    found.delete(path);
  }
  ordered.push(...found);
  // Several checks restate the same finding (hosting and enrichment both name the provider): print each line once.
  const seen = new Set<string>();
  const out: { label: string; lines: string[] }[] = [];
  for (const [label, lines] of ordered) {
    const fresh = lines.filter((line) => !seen.has(line));
    for (const line of fresh) seen.add(line);
    if (fresh.length > 0) out.push({ label, lines: fresh });
  }
  return out;
}

/** The content checks' observations worth a reader's time: what matched, not every empty list. */
function contentLines(detailed: unknown): string[] {
  const content = at(detailed, 'content.data');
  const lines: string[] = [];
  const phrases: [string, string][] = [
    ['document_share_lure_phrases', 'Document-share wording'],
    ['parcel_shipping_lure_phrases', 'Parcel/shipping wording'],
    ['streaming_clone_lure_phrases', 'Streaming/subscription wording'],
    ['streaming_clone_brand_hits', 'Streaming brands named'],
    ['marketplace_brand_lure_phrases', 'Marketplace/order/payment wording'],
    ['marketplace_brand_hits', 'Marketplace brands named'],
    ['marketplace_brand_path_hits', 'Marketplace brands in the path'],
    ['credential_fields', 'Credential fields on the page'],
  ];
  for (const [key, label] of phrases) {
    const xs = strings(at(content, key));
    if (xs.length > 0) lines.push(`${label}: ${xs.join(', ')}`);
  }
  for (const cta of arr(at(content, 'offsite_credential_ctas'))) {
    const text = str(at(cta, 'text')) ?? '(no text)';
    lines.push(`Off-site call to action "${text}" → ${str(at(cta, 'url')) ?? str(at(cta, 'host')) ?? '?'}`);
  }
  const gate = str(at(content, 'analysis_evasion_gate.status'));
  if (gate && gate !== 'page_has_content') lines.push(`Analysis-evasion gate: ${gate}`);
  const vendor = at(content, 'scanner_block_vendor_challenge');
  if (vendor !== null && vendor !== undefined && vendor !== false) {
    lines.push(
      `Scanner blocked by a vendor challenge: ${typeof vendor === 'string' ? vendor : JSON.stringify(vendor)}`,
    );
  }
  return lines;
}

function formatDate(iso: unknown): string {
  if (typeof iso !== 'string') return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : d
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC');
}

const RISK_COLOURS: Record<string, string> = {
  low: '#2e7d32',
  medium: '#b26a00',
  high: '#c62828',
  critical: '#7b1fa2',
};

const CSS = `
@page { size: A4; margin: 14mm 12mm; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 9.5pt; color: #1d1d1f; margin: 0; }
h1 { font-size: 17pt; margin: 0 0 2mm; }
h2 { font-size: 12pt; margin: 6mm 0 2mm; padding-bottom: 1mm; border-bottom: 1px solid #ccc; break-after: avoid; }
h3 { font-size: 10pt; margin: 3mm 0 1mm; break-after: avoid; }
.muted { color: #666; }
.mono, code { font-family: "DejaVu Sans Mono", "Liberation Mono", monospace; font-size: 8.5pt; }
.wrap { overflow-wrap: anywhere; }
.mono.wrap { word-break: break-all; }
.kicker { font-size: 9pt; text-transform: uppercase; letter-spacing: 0.1em; color: #666; margin-bottom: 1mm; }
table { border-collapse: collapse; width: 100%; margin: 1mm 0 2mm; }
th, td { text-align: left; vertical-align: top; padding: 1.2mm 1.8mm; border-bottom: 1px solid #e3e3e3; }
th { background: #f3f4f6; font-weight: 600; }
tr { break-inside: avoid; }
.summary { display: flex; gap: 6mm; align-items: stretch; margin-top: 3mm; }
.score { align-self: flex-start; min-width: 34mm; border-radius: 3mm; color: #fff; padding: 3mm; text-align: center; }
.score .n { font-size: 28pt; font-weight: 700; line-height: 1; }
.score .l { font-size: 11pt; text-transform: uppercase; letter-spacing: 0.08em; margin-top: 1mm; }
.summary table { margin: 0; }
.summary th { width: 32mm; background: none; color: #555; font-weight: 500; }
ul { margin: 0.5mm 0 2mm; padding-left: 5mm; }
li { margin: 0.6mm 0; }
.flag { font-weight: 600; }
.tag { display: inline-block; font-size: 7.5pt; padding: 0 1.5mm; border: 1px solid #999; border-radius: 1.5mm; color: #555; margin-left: 1mm; }
.ok { color: #2e7d32; font-weight: 600; }
.bad { color: #c62828; font-weight: 600; }
.shot { text-align: center; break-inside: avoid; }
.shot img { max-width: 100%; max-height: 200mm; border: 1px solid #ccc; }
footer { margin-top: 8mm; font-size: 8pt; color: #777; border-top: 1px solid #ddd; padding-top: 2mm; }
`;

/** A self-contained HTML report for one scan: inline CSS, the screenshot as a data URL, no external requests. */
export function reportHtml(input: ReportInput): string {
  const r = input.result;
  const d = r.detailed_results ?? {};
  const flags = strings(r.flags);
  const pack = r.tabs?.detection?.evidencepack;
  const findings = arr(pack?.findings);
  const risk = str(r.risk_level) ?? 'unknown';
  const title = `Preflight scan report: ${str(r.domain) ?? 'unknown domain'}`;

  const flagRows = flags.map((flag) => {
    const declared = input.describe(flag);
    const details = findings
      .filter((f) => at(f, 'flag') === flag)
      .map((f) => str(at(f, 'detail')))
      .filter((x): x is string => x !== undefined);
    return h`<tr>
      <td class="mono wrap flag">${flag}</td>
      <td>${declared ?? h`<span class="muted">No description recorded for this flag.</span>`}
        ${details.length > 0 ? h`<ul>${details.map((x) => h`<li class="wrap">${x}</li>`)}</ul>` : ''}</td>
    </tr>`;
  });

  const breakdown = r.score_breakdown;
  const categories = Object.entries(breakdown?.categories ?? {});
  const adjustments = arr(breakdown?.adjustments);
  const reconciles = breakdown?.reconciles;

  const timeline = arr(r.tabs?.redirect_timeline);
  const evidence = evidenceLines(d);
  const content = contentLines(d);

  const screenshotUrl = str(at(d, 'visual.data.screenshot_url'));
  const degradedReason = str(at(d, 'visual.data.degraded_reason'));
  const screenshot = input.screenshotPng
    ? h`<div class="shot"><img alt="Screenshot of the scanned page" src="${`data:image/png;base64,${input.screenshotPng.toString('base64')}`}"></div>`
    : h`<p class="muted">no screenshot: ${
        degradedReason ?? (screenshotUrl ? 'the stored screenshot is no longer available' : 'none was captured')
      }</p>`;

  const riskColour = RISK_COLOURS[risk] ?? '#555';
  const doc = h`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<title>${title}</title>
<style>${new Markup(CSS)}</style>
</head>
<body>
<div class="kicker">Preflight scan report</div>
<h1 class="wrap">${str(r.domain) ?? 'unknown domain'}</h1>
<div class="muted">Scan #${r.scan_id} · generated ${formatDate((input.generatedAt ?? new Date()).toISOString())}</div>

<div class="summary">
  <div class="score" style="background:${new Markup(riskColour)}">
    <div class="n">${cell(r.score)}</div>
    <div class="l">${risk}</div>
  </div>
  <table>
    <tr><th>Domain</th><td class="wrap">${r.domain}</td></tr>
    <tr><th>Target</th><td class="mono wrap">${r.target_url}</td></tr>
    <tr><th>Final URL</th><td class="mono wrap">${str(at(d, 'visual.data.final_url')) ?? '—'}</td></tr>
    <tr><th>Scanned at</th><td>${formatDate(r.scanned_at)}</td></tr>
    <tr><th>Ruleset hash</th><td class="mono wrap">${r.ruleset_hash ?? '—'}</td></tr>
  </table>
</div>

<h2>Flags (${flags.length})</h2>
${
  flags.length > 0
    ? h`<table><tr><th style="width:38%">Flag</th><th>What it means, and what was found</th></tr>${flagRows}</table>`
    : h`<p class="muted">No flags were raised.</p>`
}

<h2>Evidence</h2>
${evidence.map((group) => h`<h3>${group.label}</h3><ul>${group.lines.map((line) => h`<li class="wrap">${line}</li>`)}</ul>`)}
${content.length > 0 ? h`<h3>Page content</h3><ul>${content.map((line) => h`<li class="wrap">${line}</li>`)}</ul>` : ''}
${evidence.length === 0 && content.length === 0 ? h`<p class="muted">No evidence lines were recorded.</p>` : ''}

<h2>Score breakdown</h2>
<table>
  <tr><th>Category</th><th style="width:25%">Points</th></tr>
  ${categories.map(([name, points]) => h`<tr><td>${name}</td><td>${cell(points)}</td></tr>`)}
  <tr><th>Raw total</th><th>${cell(breakdown?.raw_total)}</th></tr>
</table>
${
  adjustments.length > 0
    ? h`<h3>Adjustments</h3><table><tr><th>Reason</th><th>From → to</th><th>Detail</th></tr>${adjustments.map(
        (a) =>
          h`<tr><td class="mono">${str(at(a, 'reason'))}</td><td>${cell(at(a, 'from'))} → ${cell(at(a, 'to'))}</td><td class="wrap">${str(at(a, 'detail'))}</td></tr>`,
      )}</table>`
    : h`<p class="muted">No adjustments.</p>`
}
<table>
  <tr><th style="width:40%">Applied score</th><td><b>${cell(breakdown?.applied_score)}</b></td></tr>
  <tr><th>Reconciles</th><td>${
    reconciles === true
      ? h`<span class="ok">yes</span> — raw total minus every recorded reduction equals the applied score`
      : reconciles === false
        ? h`<span class="bad">no</span> — points were removed without a recorded reason`
        : '—'
  }</td></tr>
</table>

<h2>Redirect timeline</h2>
${
  timeline.length > 0
    ? h`<table><tr><th style="width:8%">Step</th><th style="width:10%">Kind</th><th style="width:10%">Status</th><th>URL</th></tr>${timeline.map(
        (s) =>
          h`<tr><td>${cell(at(s, 'step'))}</td><td>${cell(at(s, 'kind'))}</td><td>${cell(at(s, 'status'))}</td><td class="mono wrap">${str(at(s, 'url'))}</td></tr>`,
      )}</table>`
    : h`<p class="muted">No redirects were recorded.</p>`
}

<h2>Screenshot</h2>
${screenshot}

<h2>Evidence pack</h2>
<table>
  <tr><th style="width:20%">ID</th><td class="mono">${pack?.id ?? '—'}</td></tr>
  <tr><th>SHA-256</th><td class="mono wrap">${pack?.sha256 ?? '—'}</td></tr>
</table>
<p class="muted">The SHA-256 is over the canonical JSON served at GET /evidencepacks/${pack?.id ?? '<id>'}.</p>

<footer>Preflight · scan #${r.scan_id} · ${r.domain}</footer>
</body>
</html>
`;
  return doc.html;
}
