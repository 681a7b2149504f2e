// Builds a lab SITES_DIR (DESIGN §7) and LABELS.json from saved phishing-kit templates and saved real benign pages
// held in local mirrors of public repositories (see scripts/kits/README.md for sources, commits and licences).
// Nothing here is copied into the repository: the pages are read from the mirrors when the lab is built.
//
// Split: every kit belongs to a brand family (all templates of one brand, whichever tool ships them); a family is
// held out when the first hex digit of sha256(family) is below 8. Benign pages are split by the same rule on their
// registrable domain. `dev` may be read and tuned on; `heldout` is only ever scanned for the final figures.
//
// Usage: node --import tsx scripts/kits/build-lab.ts OUT_DIR [--split dev|heldout|all]
//   writes OUT_DIR/sites/<host>/... and OUT_DIR/labels.json ({host: {label, expect_flags, family, source, split}}).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

const MIRRORS = process.env.PREFLIGHT_MIRRORS ?? '/work/.mirror';

interface KitSource {
  repo: string;
  commit: string;
  /** Folder holding one template per sub-folder. */
  root: string;
  /** The page a victim lands on, tried in order. */
  entries: string[];
}

const KIT_SOURCES: KitSource[] = [
  {
    repo: 'htr-tech/zphisher',
    commit: '65b99bccaa746ec3edda4291ec7f4048fbd49771',
    root: '.sites',
    entries: ['login.html', 'index.html'],
  },
  {
    repo: 'DarkSecDevelopers/HiddenEye',
    commit: '7a3deaf6f55de1a0ff1f3d0a4cde77a4ed58c63f',
    root: 'WebPages',
    entries: ['index.html', 'login.html'],
  },
];

const BENIGN_SOURCE = {
  repo: 'scrapinghub/article-extraction-benchmark',
  commit: '4a3bc979f76c0df73cb95fe272e2fc1b96f9f010',
};

/** Template folder → brand family (variants of one brand's kit are one family, so no brand spans both splits). */
const FAMILY_ALIASES: [RegExp, string][] = [
  [/^(fb_|facebook)/i, 'facebook'],
  [/^(ig_|insta)/i, 'instagram'],
  [/^google/i, 'google'],
  [/^vk/i, 'vk'],
  [/^reddit/i, 'reddit'],
  [/^snapchat/i, 'snapchat'],
  [/^(live_web|microsoft|xbox)/i, 'microsoft'],
  [/^yahoo/i, 'yahoo'],
  [/^devian/i, 'deviantart'],
  [/^icloud/i, 'apple'],
];
/** Folders that are not a victim-facing page (tool UIs, custom placeholders, adult content). */
const SKIP = /^(tools|custom|pornhub)/i;

function git(repo: string, ...args: string[]): Buffer {
  const dir = path.join(MIRRORS, `${repo.replace('/', '+')}`, 'repo');
  return execFileSync('git', ['--git-dir', dir, ...args], { maxBuffer: 64 * 1024 * 1024 });
}

function familyOf(folder: string): string {
  for (const [re, family] of FAMILY_ALIASES) if (re.test(folder)) return family;
  return folder.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

export function splitOf(key: string): 'dev' | 'heldout' {
  const digit = Number.parseInt(createHash('sha256').update(key).digest('hex')[0]!, 16);
  return digit < 8 ? 'heldout' : 'dev';
}

function hash(s: string): number {
  return createHash('sha256').update(s).digest().readUInt32BE(0);
}

// Kit hosts: tenants of free platforms and ordinary, unrelated old domains (no brand words, no site.json hints).
const PLATFORMS = ['vercel.app', 'gitbook.io', 'pages.dev', 'github.io', 'netlify.app', 'web.app'];
const WORDS = ['maple', 'harbor', 'quartz', 'cedar', 'lumen', 'orchid', 'summit', 'willow', 'atlas', 'juniper'];
const TAILS = ['dental-care.com', 'garden-club.org', 'auto-parts.net', 'bakery.co', 'realty-group.com', 'yoga.studio'];

function kitHost(key: string, taken: Record<string, unknown>): string {
  const h = hash(key);
  const word = WORDS[h % WORDS.length]!;
  const n = ((h >>> 8) % 9000) + 1000;
  const base =
    (h >>> 12) % 2 === 0
      ? `${word}-${n}.${PLATFORMS[(h >>> 4) % PLATFORMS.length]}`
      : `${word}${n % 100}-${TAILS[(h >>> 4) % TAILS.length]}`;
  let host = base;
  for (let i = 2; host in taken; i++) host = base.replace('.', `-${i}.`);
  return host;
}

/** Drops the tools' own "this is a fake page" banner comments, so the page reads as it would in the wild. */
function stripToolComments(html: string): string {
  return html.replace(/<!--[\s\S]{0,2000}?-->/g, (c) => (/phish|fake page|github\.com/i.test(c) ? '' : c));
}

interface Label {
  label: 'phishing' | 'benign';
  expect_flags: string[];
  family: string;
  source: string;
  split: 'dev' | 'heldout';
}

function writeSite(sitesDir: string, host: string, files: Map<string, Buffer>): void {
  const dir = path.join(sitesDir, host);
  for (const [rel, body] of files) {
    const file = path.join(dir, rel);
    if (!file.startsWith(dir)) continue;
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, body);
  }
}

function buildKits(sitesDir: string, labels: Record<string, Label>, want: (s: Label['split']) => boolean): void {
  for (const src of KIT_SOURCES) {
    const folders = git(src.repo, 'ls-tree', '-d', '--name-only', src.commit, `${src.root}/`)
      .toString()
      .split('\n')
      .filter(Boolean);
    for (const folder of folders) {
      const name = path.basename(folder);
      if (SKIP.test(name)) continue;
      const paths = git(src.repo, 'ls-tree', '-r', '--name-only', src.commit, `${folder}/`)
        .toString()
        .split('\n')
        .filter(Boolean);
      const entry = src.entries.map((e) => `${folder}/${e}`).find((p) => paths.includes(p));
      if (!entry) continue;
      const family = familyOf(name);
      const split = splitOf(family);
      if (!want(split)) continue;
      const files = new Map<string, Buffer>();
      for (const p of paths) {
        const rel = p.slice(folder.length + 1);
        if (/\.(php|txt|md)$/i.test(rel) || /(^|\/)LICENSE$/i.test(rel)) continue;
        const body = git(src.repo, 'show', `${src.commit}:${p}`);
        if (body.length > 2_000_000) continue;
        files.set(rel, body);
      }
      files.set('index.html', Buffer.from(stripToolComments(files.get(entry.slice(folder.length + 1))!.toString())));
      const host = kitHost(`${src.repo}/${name}`, labels);
      writeSite(sitesDir, host, files);
      labels[host] = { label: 'phishing', expect_flags: [], family, source: `${src.repo}:${folder}`, split };
    }
  }
}

function buildBenign(sitesDir: string, labels: Record<string, Label>, want: (s: Label['split']) => boolean): void {
  const truth = JSON.parse(git(BENIGN_SOURCE.repo, 'show', `${BENIGN_SOURCE.commit}:ground-truth.json`).toString());
  const seen = new Set<string>();
  for (const [id, record] of Object.entries(truth as Record<string, { url: string }>).sort()) {
    let host: string;
    try {
      host = new URL(record.url).hostname.toLowerCase();
    } catch {
      continue;
    }
    // One page per site: a lab host serves one index page.
    if (seen.has(host)) continue;
    seen.add(host);
    const split = splitOf(host);
    if (!want(split)) continue;
    const html = gunzipSync(git(BENIGN_SOURCE.repo, 'show', `${BENIGN_SOURCE.commit}:html/${id}.html.gz`));
    writeSite(sitesDir, host, new Map([['index.html', html]]));
    labels[host] = {
      label: 'benign',
      expect_flags: [],
      family: host,
      source: `${BENIGN_SOURCE.repo}:html/${id}`,
      split,
    };
  }
}

function main(): void {
  const out = process.argv[2];
  if (!out) throw new Error('usage: build-lab.ts OUT_DIR [--split dev|heldout|all]');
  const splitArg = process.argv.includes('--split') ? process.argv[process.argv.indexOf('--split') + 1] : 'all';
  const want = (s: Label['split']) => splitArg === 'all' || splitArg === s;
  const sitesDir = path.join(out, 'sites');
  if (existsSync(sitesDir)) rmSync(sitesDir, { recursive: true });
  mkdirSync(sitesDir, { recursive: true });
  const labels: Record<string, Label> = {};
  buildKits(sitesDir, labels, want);
  buildBenign(sitesDir, labels, want);
  writeFileSync(path.join(out, 'labels.json'), `${JSON.stringify(labels, null, 2)}\n`);
  const count = (l: string) => Object.values(labels).filter((x) => x.label === l).length;
  process.stdout.write(
    `${JSON.stringify({ sites: Object.keys(labels).length, phishing: count('phishing'), benign: count('benign'), split: splitArg })}\n`,
  );
}

main();
