import { parse as parseCsv } from 'csv-parse/sync';
// More benign text that reads like instructions: framework docs in seven languages, a blog of release notes and
// how-tos, recipes, real e-mail fixtures and everyday questions to assistants.
import { guessLang } from '../lang.ts';
import { listFiles, type RepoPin, readMany } from '../mirror.ts';
import { Rng } from '../rng.ts';
import type { Source, SourceRecord } from '../source.ts';
import { htmlToText, paragraphWindows, tidy } from '../text.ts';

/** Front matter (--- ... ---) says nothing an agent would read as instructions; it is cut. */
function stripFrontMatter(md: string): string {
  return md.replace(/^---\n[\s\S]*?\n---\n/, '');
}

const REACT_DOCS: Record<string, { repo: string; commit: string }> = {
  en: { repo: 'reactjs/react.dev', commit: '12d692da47e77cdc558b928fcfbaf4e71c6d0cec' },
  de: { repo: 'reactjs/de.react.dev', commit: '2e664a02b30e6aefee68f35de685699dee3f6e75' },
  fr: { repo: 'reactjs/fr.react.dev', commit: 'd60169fc8269d36347b340dd1def35c7af8e031d' },
  es: { repo: 'reactjs/es.react.dev', commit: 'e91a76a98e0291fd3ae2abeb3da31442981a77f1' },
  pt: { repo: 'reactjs/pt-br.react.dev', commit: 'ac8362350bbc25125a88b9309b54457589023c7e' },
  zh: { repo: 'reactjs/zh-hans.react.dev', commit: 'f6cda05526ceff44b24588e9e0c2e2106d4588d4' },
  ja: { repo: 'reactjs/ja.react.dev', commit: '7f38231d9d5dddaae6ac51da7d0f173d697f835c' },
};
// Windows per page and language: long reference pages would otherwise dominate.
const REACT_WINDOWS_PER_PAGE = 6;

function reactDocs(lang: string): Source {
  const pin = REACT_DOCS[lang]!;
  return {
    info: {
      id: `react_docs_${lang}`,
      repo: pin.repo,
      commit: pin.commit,
      licence: 'CC-BY-4.0 (documentation)',
      files: ['src/content/**/*.md'],
      description: `React documentation (${lang}): prose, install steps, code samples with comments; up to ${REACT_WINDOWS_PER_PAGE} windows a page; a page shares its group with its translations`,
      policy: { kind: 'hash', validation: 0.15, test: 0.2 },
    },
    load() {
      const p: RepoPin = { repo: pin.repo, commit: pin.commit };
      const files = listFiles(p, 'src/content/').filter((f) => f.endsWith('.md'));
      const texts = readMany(p, files);
      const out: SourceRecord[] = [];
      for (const file of files) {
        const md = stripFrontMatter(texts.get(file) ?? '');
        const windows = paragraphWindows(tidy(md), 1400, 120);
        const rng = new Rng(`react:${lang}:${file}`);
        for (const w of rng.sample(windows, REACT_WINDOWS_PER_PAGE)) {
          // Untranslated pages of a translation stay English and the record says so; any other guess on a window of a
          // translation is a misreading of code or names, so the repository's language stands.
          const detected = guessLang(w);
          out.push({
            text: w,
            label: 0,
            source: `react_docs_${lang}`,
            lang: detected === 'en' ? 'en' : lang,
            kind: 'content',
            group: `react-docs:${file.replace(/^src\/content\//, '')}`,
          });
        }
      }
      return out;
    },
  };
}

export const reactDocsSources: Source[] = Object.keys(REACT_DOCS).map(reactDocs);

const NODE_RELEASE_CAP = 120;

export const nodejsSite: Source = {
  info: {
    id: 'nodejs_site',
    repo: 'nodejs/nodejs.org',
    commit: '6f94c8a6ab643beeee7038eba3fb521207d4b345',
    licence: 'MIT',
    files: ['apps/site/pages/en/**/*.md', 'apps/site/pages/en/**/*.mdx'],
    description: `Node.js site pages: blog posts, security advisories (upgrade now, run this command), about pages; release notes sampled (${NODE_RELEASE_CAP}); group = page`,
    policy: { kind: 'hash', validation: 0.15, test: 0.2 },
  },
  load() {
    const p: RepoPin = { repo: this.info.repo!, commit: this.info.commit! };
    const all = listFiles(p, 'apps/site/pages/en/').filter((f) => /\.mdx?$/.test(f));
    const releases = all.filter((f) => f.includes('/blog/release/'));
    const chosen = [
      ...all.filter((f) => !f.includes('/blog/release/')),
      ...new Rng('node-releases').sample(releases, NODE_RELEASE_CAP),
    ].sort();
    const texts = readMany(p, chosen);
    const out: SourceRecord[] = [];
    for (const file of chosen) {
      const md = stripFrontMatter(texts.get(file) ?? '');
      for (const w of new Rng(`node:${file}`).sample(paragraphWindows(tidy(md), 1400, 120), 4)) {
        out.push({ text: w, label: 0, source: 'nodejs_site', lang: 'en', kind: 'content', group: `node:${file}` });
      }
    }
    return out;
  },
};

export const basedCooking: Source = {
  info: {
    id: 'recipes',
    repo: 'LukeSmithxyz/based.cooking',
    commit: '2d8642ec41ccc6162ec3123c15024dd3d22cc33b',
    licence: 'Unlicense (public domain)',
    files: ['content/*.md'],
    description: 'recipes: ingredient lists and numbered imperative steps; one group per recipe',
    policy: { kind: 'hash', validation: 0.15, test: 0.2 },
  },
  load() {
    const p: RepoPin = { repo: this.info.repo!, commit: this.info.commit! };
    const files = listFiles(p, 'content/').filter((f) => f.endsWith('.md') && !f.endsWith('_index.md'));
    const texts = readMany(p, files);
    return files.flatMap((file) => {
      const text = tidy(stripFrontMatter(texts.get(file) ?? ''));
      return text.length < 80
        ? []
        : [
            {
              text,
              label: 0 as const,
              source: 'recipes',
              lang: 'en',
              kind: 'content' as const,
              group: `recipe:${file}`,
            },
          ];
    });
  },
};

export const emailFixtures: Source = {
  info: {
    id: 'email_fixtures',
    repo: 'mailgun/talon',
    commit: '71d9b6eb78e985bcdfbf99b69c20c001b4b818c4',
    licence: 'Apache-2.0',
    files: ['tests/fixtures/**'],
    description:
      'real e-mail bodies, replies with quoted history and signatures, HTML mails from several clients; whole source in validation/test (few files)',
    policy: { kind: 'hash', validation: 0.3, test: 0.4 },
  },
  load() {
    const p: RepoPin = { repo: this.info.repo!, commit: this.info.commit! };
    const files = listFiles(p, 'tests/fixtures/').filter((f) => !f.endsWith('.py') && !/_sender$|_signature$/.test(f));
    const texts = readMany(p, files);
    const out: SourceRecord[] = [];
    for (const file of files) {
      const raw = texts.get(file) ?? '';
      if (raw.trim().length < 40) continue;
      const html = /\.html?$/.test(file);
      const text = html ? raw : tidy(raw);
      out.push({
        text,
        label: 0,
        source: 'email_fixtures',
        lang: guessLang(html ? htmlToText(raw) : raw),
        kind: html ? 'html' : 'content',
        group: `talon:${file}`,
      });
    }
    return out;
  },
};

export const emailReplies: Source = {
  info: {
    id: 'email_reply_fixtures',
    repo: 'github/email_reply_parser',
    commit: '59e5859cfe826d3cb6069bbbfd8577230c93b3cf',
    licence: 'MIT',
    files: ['test/emails/*.txt'],
    description: 'real-looking e-mail replies with quoted text and signatures',
    policy: { kind: 'hash', validation: 0.3, test: 0.4 },
  },
  load() {
    const p: RepoPin = { repo: this.info.repo!, commit: this.info.commit! };
    const files = listFiles(p, 'test/emails/');
    const texts = readMany(p, files);
    return files.flatMap((file) => {
      const text = tidy(texts.get(file) ?? '');
      return text.length < 30
        ? []
        : [
            {
              text,
              label: 0 as const,
              source: 'email_reply_fixtures',
              lang: guessLang(text),
              kind: 'content' as const,
              group: `erp:${file}`,
            },
          ];
    });
  },
};

export const fuzzyBenign: Source = {
  info: {
    id: 'fuzzyai_benign_prompts',
    repo: 'cyberark/FuzzyAI',
    commit: 'a81260f5eb16a361155a235d44e64684e5f5bc85',
    licence: 'Apache-2.0',
    files: ['src/fuzzyai/resources/benign_prompts.txt'],
    description: 'everyday questions and requests to an assistant (one a line); group = line',
    policy: { kind: 'hash', validation: 0.15, test: 0.2 },
  },
  load() {
    const p: RepoPin = { repo: this.info.repo!, commit: this.info.commit! };
    const file = this.info.files[0]!;
    const lines = (readMany(p, [file]).get(file) ?? '').split('\n');
    return lines.flatMap((line, i) => {
      const text = line.trim();
      return text.length < 8
        ? []
        : [
            {
              text,
              label: 0 as const,
              source: 'fuzzyai_benign_prompts',
              lang: 'en',
              kind: 'prompt' as const,
              group: `fuzzy-benign:${i}`,
            },
          ];
    });
  },
};

/**
 * XSTest's safe prompts: ordinary questions that use words of violence, drugs or privacy in a harmless sense ("How
 * can I kill a Python process?"), so that alarming vocabulary alone is no sign of an attack. The unsafe half is not
 * read (harmful requests are not injections, and they are not what this set is for).
 */
export const xstestSafe: Source = {
  info: {
    id: 'xstest_safe_prompts',
    repo: 'paul-rottger/exaggerated-safety',
    commit: 'd7bb5bd738c1fcbc36edd83d5e7d1b71a3e2d84d',
    licence: 'CC-BY-4.0',
    files: ['xstest_prompts.csv (rows labelled safe)'],
    description:
      'short safe prompts with alarming homonyms, figurative language and safe contexts; group = prompt type',
    policy: { kind: 'hash', validation: 0.15, test: 0.2 },
  },
  load() {
    const p: RepoPin = { repo: this.info.repo!, commit: this.info.commit! };
    const rows = parseCsv(readMany(p, ['xstest_prompts.csv']).get('xstest_prompts.csv') ?? '', {
      columns: true,
    }) as { id: string; prompt: string; type: string; label: string }[];
    return rows
      .filter((r) => r.label === 'safe' && r.prompt.trim().length >= 8)
      .map((r) => ({
        text: r.prompt.trim(),
        label: 0 as const,
        source: 'xstest_safe_prompts',
        lang: 'en',
        kind: 'prompt' as const,
        // A type is one way of being harmless (homonyms, figurative language, ...): whole types go to one split.
        group: `xstest:${r.type}`,
      }));
  },
};

const CODE_REPOS: { repo: string; commit: string; licence: string; pattern: RegExp }[] = [
  {
    repo: 'nodejs/nodejs.org',
    commit: '6f94c8a6ab643beeee7038eba3fb521207d4b345',
    licence: 'MIT',
    pattern: /\.(ts|tsx|mjs|js)$/,
  },
  {
    repo: 'mailgun/talon',
    commit: '71d9b6eb78e985bcdfbf99b69c20c001b4b818c4',
    licence: 'Apache-2.0',
    pattern: /\.py$/,
  },
  {
    repo: 'cyberark/FuzzyAI',
    commit: 'a81260f5eb16a361155a235d44e64684e5f5bc85',
    licence: 'Apache-2.0',
    pattern: /\.py$/,
  },
];
const CODE_LINES = 60;

/** Source files read as text an agent might open (a code review, a "fix this file" task); never copied here. */
export const codeFiles: Source = {
  info: {
    id: 'code_files',
    repo: CODE_REPOS.map((r) => r.repo).join(', '),
    commit: CODE_REPOS.map((r) => r.commit.slice(0, 12)).join(', '),
    licence: 'MIT / Apache-2.0 (read from the mirrors at build time)',
    files: ['nodejs/nodejs.org: **/*.{ts,tsx,mjs,js}', 'mailgun/talon, cyberark/FuzzyAI: **/*.py'],
    description: `source code with comments and docstrings, in windows of up to ${CODE_LINES} lines (2 per file); group = file`,
    policy: { kind: 'hash', validation: 0.15, test: 0.2 },
  },
  load() {
    const out: SourceRecord[] = [];
    for (const r of CODE_REPOS) {
      const p: RepoPin = { repo: r.repo, commit: r.commit };
      const files = listFiles(p).filter((f) => r.pattern.test(f) && !f.includes('node_modules'));
      const texts = readMany(p, files);
      for (const file of files) {
        const lines = (texts.get(file) ?? '').split('\n');
        const starts: number[] = [];
        for (let s = 0; s < lines.length; s += CODE_LINES) starts.push(s);
        for (const s of new Rng(`code:${r.repo}:${file}`).sample(starts, 2).sort((a, b) => a - b)) {
          const text = lines
            .slice(s, s + CODE_LINES)
            .join('\n')
            .trim();
          if (text.length < 120) continue;
          out.push({
            text,
            label: 0,
            source: 'code_files',
            lang: 'en',
            kind: 'content',
            group: `code:${r.repo}:${file}`,
          });
        }
      }
    }
    return out;
  },
};
