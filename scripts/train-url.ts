// Trains the learned URL scorer (plugins/url-model): logistic regression over hashed lexical features, fixed seed,
// same data → same bytes. Usage: npm run train:url [-- --mirror DIR] [--heldout-out DIR]
// Data are read from git mirrors of public repositories (MIRROR_DIR/<owner>+<name>/repo, as the search tool's
// `fetch` leaves them); nothing of them is committed except the model's weights. Every source, with repository,
// commit, file, licence and counts, is written to plugins/url-model/DATA.md.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'tldts';
import { pluginCatalog } from '../app/index.ts';
import { ROOT_DIR } from '../core/config.ts';
import { loadRuleset } from '../core/engine/rules/ruleset.ts';
import { BrandCatalog, HostingCatalog } from '../core/engine/url/catalogs.ts';
import { parseTarget } from '../core/engine/url/target.ts';
import { hashFeatures, urlFeatures } from '../plugins/url-model/features.ts';
import { isScorable } from '../plugins/url-model/gate.ts';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const MIRROR = opt('--mirror', process.env.PREFLIGHT_MIRROR_DIR ?? '/work/.mirror');
const HELDOUT_OUT = opt('--heldout-out', path.join(ROOT_DIR, 'scratch', 'url-heldout'));
const BITS = 14;
const EPOCHS = 6;
const SEED = 20261124;

type Label = 'phishing' | 'benign';
interface Source {
  id: string;
  repo: string;
  file: string;
  licence: string;
  label: Label;
  /** Lines of the file → URLs. */
  read: (text: string) => string[];
  note: string;
}

const lines = (t: string) =>
  t
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
const hostsFile = (t: string) => lines(t).map((l) => `https://${l.split(/\s+/).pop()}/`);
const csvColumn = (t: string, col: number, skipHeader = true) =>
  lines(t)
    .slice(skipHeader ? 1 : 0)
    .map((l) => l.split(',')[col]?.trim() ?? '')
    .filter(Boolean);

const SOURCES: Source[] = [
  {
    id: 'phishtank_2020',
    repo: 'shreyagopal/Phishing-Website-Detection-by-Machine-Learning-Techniques',
    file: 'DataFiles/2.online-valid.csv',
    licence:
      'PhishTank data (CC BY-SA 2.5, attribution: PhishTank / Cisco Talos); the copying repository has no licence file',
    label: 'phishing',
    read: (t) => csvColumn(t, 1),
    note: 'verified online phishing URLs, PhishTank snapshot of May 2020',
  },
  {
    id: 'polkadot_deny',
    repo: 'polkadot-js/phishing',
    file: 'all.json',
    licence: 'Apache-2.0',
    label: 'phishing',
    read: (t) => (JSON.parse(t) as { deny: string[] }).deny.map((d) => `https://${d}/`),
    note: 'crypto-scam and wallet-drainer hosts (deny list)',
  },
  {
    id: 'blocklist_fr',
    repo: 'yassirh/blocklist-fr',
    file: 'hosts/phishing.txt',
    licence: 'MIT',
    label: 'phishing',
    read: hostsFile,
    note: 'phishing hosts aimed at French users (held out whole)',
  },
  {
    id: 'unb_url2016_benign',
    repo: 'shreyagopal/Phishing-Website-Detection-by-Machine-Learning-Techniques',
    file: 'DataFiles/1.Benign_list_big_final.csv',
    licence:
      'UNB CIC ISCX-URL-2016 benign URLs (published by the Canadian Institute for Cybersecurity for research, citation requested); the copying repository has no licence file',
    label: 'benign',
    read: (t) => lines(t),
    note: 'benign URLs with paths from a crawl of popular sites',
  },
  {
    id: 'brand_infra_hosts',
    repo: 'blocklistproject/Lists',
    file: 'alt-version/{facebook,youtube,tiktok,twitter,adobe,smart-tv}-nl.txt',
    licence: 'Unlicense',
    label: 'benign',
    read: hostsFile,
    note: 'hostnames of the brands’ own infrastructure (CDNs, APIs, edges), as lists made to block those brands',
  },
  {
    id: 'universities',
    repo: 'Hipo/university-domains-list',
    file: 'world_universities_and_domains.json',
    licence: 'MIT',
    label: 'benign',
    read: (t) =>
      (JSON.parse(t) as { domains: string[]; web_pages: string[] }[]).flatMap((u) => [
        ...u.domains.map((d) => `https://${d}/`),
        ...u.web_pages,
      ]),
    note: 'university domains and home pages worldwide',
  },
  {
    id: 'dotgov',
    repo: 'cisagov/dotgov-data',
    file: 'current-full.csv + dotgov-websites/other-websites.csv + dotgov-websites/pulse-subdomains-snapshot-06-08-2020-https.csv',
    licence: 'CC0-1.0',
    label: 'benign',
    read: (t) => lines(t).map((l) => `https://${l}/`),
    note: 'US government registrable domains, federal sites off .gov, and .gov subdomains',
  },
];

function mirrorRead(repo: string, file: string): { text: string; commit: string } {
  const gitDir = path.join(MIRROR, repo.replace('/', '+'), 'repo');
  const commit = execFileSync('git', ['--git-dir', gitDir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  const text = execFileSync('git', ['--git-dir', gitDir, 'show', `HEAD:${file}`], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  return { text, commit };
}

function sourceText(s: Source): { text: string; commit: string } {
  if (s.id === 'brand_infra_hosts') {
    const parts = ['facebook', 'youtube', 'tiktok', 'twitter', 'adobe', 'smart-tv'].map((n) =>
      mirrorRead(s.repo, `alt-version/${n}-nl.txt`),
    );
    return { text: parts.map((p) => p.text).join('\n'), commit: parts[0]!.commit };
  }
  if (s.id === 'dotgov') {
    const full = mirrorRead(s.repo, 'current-full.csv');
    const other = mirrorRead(s.repo, 'dotgov-websites/other-websites.csv');
    const pulse = mirrorRead(s.repo, 'dotgov-websites/pulse-subdomains-snapshot-06-08-2020-https.csv');
    const hosts = [...csvColumn(full.text, 0), ...csvColumn(other.text, 0), ...csvColumn(pulse.text, 0)];
    return { text: hosts.join('\n'), commit: full.commit };
  }
  return mirrorRead(s.repo, s.file);
}

/** Deterministic split by registrable domain (so one site never sits on both sides): train, val or test. */
function splitOf(site: string): 'train' | 'val' | 'test' {
  const h = createHash('sha256').update(`url-model-split:${site}`).digest().readUInt32BE(0) % 100;
  return h < 70 ? 'train' : h < 80 ? 'val' : 'test';
}

/** mulberry32: a tiny seeded PRNG, so shuffles (and therefore weights) are the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Example {
  url: string;
  y: 0 | 1;
  source: string;
  site: string;
  x: number[];
}

const ruleset = loadRuleset(path.join(ROOT_DIR, 'rules'), pluginCatalog());
const ctx = { brands: new BrandCatalog(ruleset.brands), hosting: new HostingCatalog(ruleset.hosting) };

const examples: Example[] = [];
const manifest: {
  id: string;
  repo: string;
  commit: string;
  file: string;
  licence: string;
  label: Label;
  note: string;
  lines: number;
  used: number;
  skipped_unscorable: number;
}[] = [];
/** Per-source cap, so one large list does not drown the others (deterministic: the first N by hash). */
const CAP = 30_000;
for (const s of SOURCES) {
  const { text, commit } = sourceText(s);
  const urls = [...new Set(s.read(text))];
  const ranked = urls
    .map((u) => ({ u, k: createHash('sha256').update(`cap:${u}`).digest('hex') }))
    .sort((a, b) => (a.k < b.k ? -1 : 1))
    .slice(0, CAP)
    .map((r) => r.u);
  let used = 0;
  let unscorable = 0;
  for (const url of ranked) {
    let target: ReturnType<typeof parseTarget>;
    try {
      target = parseTarget(url);
    } catch {
      continue;
    }
    // Brand-owned and popular sites never reach the model (the plugin gates them the same way).
    if (!isScorable(target, ctx)) {
      unscorable++;
      continue;
    }
    const site = ctx.hosting.freeHostingFor(target)?.tenantSite ?? target.site;
    examples.push({
      url,
      y: s.label === 'phishing' ? 1 : 0,
      source: s.id,
      site: parse(site).domain ?? site,
      x: hashFeatures(urlFeatures(target, ctx), BITS),
    });
    used++;
  }
  manifest.push({
    id: s.id,
    repo: s.repo,
    commit,
    file: s.file,
    licence: s.licence,
    label: s.label,
    note: s.note,
    lines: urls.length,
    used,
    skipped_unscorable: unscorable,
  });
}

// Path transplant: benign host-only lists get a copy of some hosts with a real path from the benign URL list
// (seeded), so the model cannot learn "a path means phishing" from how the lists were collected.
const benignPaths = examples
  .filter((e) => e.source === 'unb_url2016_benign')
  .map((e) => {
    const u = new URL(e.url);
    return `${u.pathname}${u.search}`;
  })
  .filter((p) => p !== '/');
const transplant = prng(SEED + 1);
for (const e of [...examples]) {
  if (e.y !== 0 || e.source === 'unb_url2016_benign' || new URL(e.url).pathname !== '/' || transplant() > 0.5) continue;
  const url = `${e.url.replace(/\/$/, '')}${benignPaths[Math.floor(transplant() * benignPaths.length)]}`;
  examples.push({ ...e, url, x: hashFeatures(urlFeatures(parseTarget(url), ctx), BITS) });
}

// blocklist_fr is held out whole (a source the model never sees); the rest split by registrable domain.
const split = (e: Example) => (e.source === 'blocklist_fr' ? 'test' : splitOf(e.site));
const train = examples.filter((e) => split(e) === 'train');
const val = examples.filter((e) => split(e) === 'val');
const test = examples.filter((e) => split(e) === 'test');

// Class weights: benign errors cost more (the popular-host false-positive budget is 0.1 %).
const nPos = train.filter((e) => e.y === 1).length;
const nNeg = train.length - nPos;
const wPos = train.length / (2 * nPos);
const wNeg = (train.length / (2 * nNeg)) * 2;

const w = new Float64Array(1 << BITS);
const g2 = new Float64Array(1 << BITS); // AdaGrad accumulators
const rand = prng(SEED);
const order = train.map((_, i) => i);
const LR = 0.2;
const L2 = 1e-4;
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
const score = (x: readonly number[]) => sigmoid(x.reduce((s, i) => s + w[i]!, 0));
for (let epoch = 0; epoch < EPOCHS; epoch++) {
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  for (const idx of order) {
    const e = train[idx]!;
    const p = score(e.x);
    const g = (p - e.y) * (e.y === 1 ? wPos : wNeg);
    for (const i of e.x) {
      const grad = g + L2 * w[i]!;
      g2[i]! += grad * grad;
      w[i]! -= (LR * grad) / (Math.sqrt(g2[i]!) + 1e-8);
    }
  }
}

// Quantise to int16 with one scale, so the file is small (2^BITS × 2 bytes, base64) and its bytes do not depend on
// float noise; the thresholds below are set on the quantised model, the one that ships.
let maxAbs = 0;
for (const v of w) maxAbs = Math.max(maxAbs, Math.abs(v));
const scale = Number((maxAbs / 32767).toPrecision(6));
const quantised = new Int16Array(1 << BITS);
for (let i = 0; i < w.length; i++) quantised[i] = Math.max(-32767, Math.min(32767, Math.round(w[i]! / scale)));
const rounded = new Float64Array(1 << BITS);
for (let i = 0; i < w.length; i++) rounded[i] = quantised[i]! * scale;
const nonZero = quantised.reduce((n, q) => n + (q !== 0 ? 1 : 0), 0);
const finalScore = (x: readonly number[]) => sigmoid(x.reduce((s, i) => s + rounded[i]!, 0));

/** The lowest threshold whose benign false-positive rate on the validation split is at most `fpr`. */
function thresholdFor(fpr: number): number {
  const benign = val
    .filter((e) => e.y === 0)
    .map((e) => finalScore(e.x))
    .sort((a, b) => b - a);
  const allowed = Math.floor(benign.length * fpr);
  const t = benign[allowed] ?? 0.5;
  return Math.min(0.9999, Math.ceil(t * 10000) / 10000 + 0.0001);
}
const threshold = thresholdFor(0.001);
const thresholdHigh = thresholdFor(0.0002);

function rates(set: Example[], t: number) {
  const bySource = new Map<string, { n: number; flagged: number }>();
  for (const e of set) {
    const s = bySource.get(e.source) ?? { n: 0, flagged: 0 };
    s.n++;
    if (finalScore(e.x) >= t) s.flagged++;
    bySource.set(e.source, s);
  }
  return [...bySource].map(([source, s]) => ({ source, n: s.n, flagged: s.flagged, rate: s.flagged / s.n }));
}

const model = {
  about:
    'Learned URL scorer (plugins/url-model): logistic regression over hashed lexical URL features (features.ts). Trained by scripts/train-url.ts; sources in DATA.md.',
  bits: BITS,
  scale,
  seed: SEED,
  epochs: EPOCHS,
  trained_on: { examples: train.length, phishing: nPos, benign: nNeg },
  suggested_thresholds: { likely: threshold, very_likely: thresholdHigh },
  /** Little-endian int16 per bucket; weight = value × scale. */
  weights_int16_base64: Buffer.from(quantised.buffer).toString('base64'),
};
const modelJson = `${JSON.stringify(model, null, 2)}\n`;
writeFileSync(path.join(ROOT_DIR, 'plugins', 'url-model', 'model.json'), modelJson);

const table = (title: string, rows: ReturnType<typeof rates>) =>
  [
    `### ${title}`,
    '',
    '| source | n | flagged | rate |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.source} | ${r.n} | ${r.flagged} | ${(100 * r.rate).toFixed(2)} % |`),
    '',
  ].join('\n');
const report = [
  table(`validation split, threshold ${threshold}`, rates(val, threshold)),
  table(`test split (held out), threshold ${threshold}`, rates(test, threshold)),
  table(`test split (held out), threshold ${thresholdHigh}`, rates(test, thresholdHigh)),
].join('\n');
console.log(report);
console.log(
  `model: ${nonZero} non-zero weights of ${1 << BITS}, ${modelJson.length} bytes, sha256 ${createHash('sha256').update(modelJson).digest('hex').slice(0, 16)}`,
);

const dataMd = [
  '# Learned URL scorer: data manifest',
  '',
  'Written by `npm run train:url` (scripts/train-url.ts). Nothing below is committed except the weights derived from',
  'it (`model.json`); the script reads each file from a git mirror of its repository.',
  '',
  '| id | label | repository @ commit | file | licence | distinct URLs | used | gated out (brand-owned / popular) | what |',
  '|---|---|---|---|---|---|---|---|---|',
  ...manifest.map(
    (m) =>
      `| ${m.id} | ${m.label} | ${m.repo} @ ${m.commit.slice(0, 12)} | ${m.file} | ${m.licence} | ${m.lines} | ${m.used} | ${m.skipped_unscorable} | ${m.note} |`,
  ),
  '',
  `Split: by registrable domain (tenant site on free hosting), sha256 bucket: 70 % train, 10 % validation (sets the`,
  `thresholds: at most 0.1 % / 0.02 % of validation benign URLs flagged), 20 % test; \`blocklist_fr\` is held out`,
  `whole. At most 30,000 URLs per source (first by sha256). Seed ${SEED}.`,
  '',
  report,
].join('\n');
writeFileSync(path.join(ROOT_DIR, 'plugins', 'url-model', 'DATA.md'), `${dataMd}\n`);

// Held-out corpora for `npx preflight replay` / scripts/eval-urls.ts: never committed (licences differ).
mkdirSync(HELDOUT_OUT, { recursive: true });
const jsonl = (set: Example[]) =>
  set.map((e) => JSON.stringify({ url: e.url, label: e.y ? 'phishing' : 'benign', source: e.source })).join('\n');
writeFileSync(path.join(HELDOUT_OUT, 'test.jsonl'), `${jsonl(test)}\n`);
console.log(`held-out test corpus: ${path.join(HELDOUT_OUT, 'test.jsonl')} (${test.length} URLs)`);
