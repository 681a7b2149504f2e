// Benign text that looks like instructions, read from pinned public repositories.
import { gunzipSync } from 'node:zlib';
import { parse as parseCsv } from 'csv-parse/sync';
import { guessLang } from '../lang.ts';
import { listFiles, readBuffer, readMany, readText } from '../mirror.ts';
import { Rng } from '../rng.ts';
import type { Source, SourceRecord } from '../source.ts';
import { capHtml, htmlToText, paragraphWindows, tidy } from '../text.ts';

const TLDR_LANGS: Record<string, string> = {
  pages: 'en',
  'pages.de': 'de',
  'pages.fr': 'fr',
  'pages.es': 'es',
  'pages.pt_BR': 'pt',
  'pages.pt_PT': 'pt',
  'pages.zh': 'zh',
  'pages.zh_TW': 'zh',
  'pages.ja': 'ja',
  'pages.it': 'it',
  'pages.nl': 'nl',
  'pages.ru': 'ru',
  'pages.ko': 'ko',
};
// English has 7,000+ pages; a sample keeps it from drowning the other languages.
// Languages beyond the seven the screen is measured on are capped too: they add variety, not weight.
const TLDR_PER_LANG_CAP: Record<string, number> = { en: 2500, it: 500, nl: 500, ru: 500, ko: 500 };

export const tldr: Source = {
  info: {
    id: 'tldr',
    repo: 'tldr-pages/tldr',
    commit: '08e345f42639f67d99282813247ac670dc6e87cb',
    licence: 'CC-BY-4.0',
    files: Object.keys(TLDR_LANGS).map((d) => `${d}/**/*.md`),
    description:
      'command help pages (imperative how-to lines) in 12 languages; a page and its translations share a group',
    policy: { kind: 'hash', validation: 0.15, test: 0.2 },
  },
  load() {
    const out: SourceRecord[] = [];
    const pin = { repo: this.info.repo!, commit: this.info.commit! };
    const perLang = new Map<string, string[]>();
    for (const file of listFiles(pin)) {
      const dir = file.split('/')[0]!;
      const lang = TLDR_LANGS[dir];
      if (!lang || !file.endsWith('.md')) continue;
      const list = perLang.get(lang) ?? [];
      list.push(file);
      perLang.set(lang, list);
    }
    for (const [lang, files] of [...perLang.entries()].sort()) {
      const cap = TLDR_PER_LANG_CAP[lang];
      const chosen = cap ? new Rng(`tldr-${lang}`).sample(files, cap).sort() : files;
      const texts = readMany(pin, chosen);
      for (const file of chosen) {
        const text = tidy(texts.get(file) ?? '');
        if (text.length < 40) continue;
        const command = file.split('/').pop()!.replace(/\.md$/, '');
        out.push({ text, label: 0, source: 'tldr', lang, kind: 'content', group: `tldr:${command}` });
      }
    }
    return out;
  },
};

// Persona prompts are benign role-play requests; the few entries that are jailbreaks in disguise are left out.
const JAILBREAK_WORDS =
  /jailbreak|\bDAN\b|do anything now|no (?:restrictions|limits|filters|rules)|uncensored|unfiltered|developer mode|ignore (?:all|any|previous|your)|without (?:any )?(?:restrictions|censorship|ethics)|禁止|越狱|不受限制/i;

export const awesomePrompts: Source = {
  info: {
    id: 'awesome_chatgpt_prompts',
    repo: 'f/awesome-chatgpt-prompts',
    commit: '246418367f3d80857def4696c14e635cc51c4a0c',
    licence: 'CC0-1.0',
    files: ['prompts.csv'],
    description:
      'persona and task prompts written for assistants ("I want you to act as ..."); entries with jailbreak wording excluded',
    policy: { kind: 'hash', validation: 0.15, test: 0.2 },
  },
  load() {
    const pin = { repo: this.info.repo!, commit: this.info.commit! };
    const rows = parseCsv(readText(pin, 'prompts.csv'), { columns: true, skip_empty_lines: true }) as Record<
      string,
      string
    >[];
    const out: SourceRecord[] = [];
    for (const row of rows) {
      const text = tidy(row.prompt ?? '');
      if (text.length < 20 || JAILBREAK_WORDS.test(text) || JAILBREAK_WORDS.test(row.act ?? '')) continue;
      out.push({
        text,
        label: 0,
        source: 'awesome_chatgpt_prompts',
        lang: guessLang(text),
        kind: 'prompt',
        group: `awesome:${(row.act ?? '').toLowerCase()}`,
      });
    }
    return out;
  },
};

export const promptsZh: Source = {
  info: {
    id: 'awesome_chatgpt_prompts_zh',
    repo: 'PlexPt/awesome-chatgpt-prompts-zh',
    commit: '367ed18b9c50b702d762c6fbc2885107141acb62',
    licence: 'MIT',
    files: ['prompts-zh.json', 'prompts-zh-TW.json'],
    description: 'Chinese persona and task prompts for assistants (simplified and traditional)',
    policy: { kind: 'hash', validation: 0.15, test: 0.2 },
  },
  load() {
    const pin = { repo: this.info.repo!, commit: this.info.commit! };
    const out: SourceRecord[] = [];
    for (const file of this.info.files) {
      const rows = JSON.parse(readText(pin, file)) as { act?: string; prompt?: string }[];
      for (const row of rows) {
        const text = tidy(row.prompt ?? '');
        if (text.length < 10 || JAILBREAK_WORDS.test(text)) continue;
        out.push({
          text,
          label: 0,
          source: 'awesome_chatgpt_prompts_zh',
          lang: 'zh',
          kind: 'prompt',
          group: `awesome-zh:${row.act ?? ''}`,
        });
      }
    }
    return out;
  },
};

const T0_PER_TEMPLATE = 25;

export const selfInstruct: Source = {
  info: {
    id: 'self_instruct',
    repo: 'yizhongw/self-instruct',
    commit: '0b26ccaa415992100fa32df62d41b994cf928e23',
    licence: 'Apache-2.0',
    // seed_tasks.jsonl is left out on purpose: the shared dev corpus (and its held-out half) are drawn from those
    // 175 seed tasks, and training on them would measure memory, not generalisation.
    files: ['human_eval/user_oriented_instructions.jsonl', 'data/finetuning/t0_train_50k/data_per_template/*.jsonl'],
    description: `task instructions with inputs (user-oriented tasks) and up to ${T0_PER_TEMPLATE} prompts per public-prompt template; group = task or template`,
    policy: { kind: 'hash', validation: 0.15, test: 0.2 },
  },
  load() {
    const pin = { repo: this.info.repo!, commit: this.info.commit! };
    const out: SourceRecord[] = [];
    for (const file of ['human_eval/user_oriented_instructions.jsonl']) {
      for (const line of readText(pin, file).split('\n')) {
        if (!line.trim()) continue;
        const task = JSON.parse(line) as { id: string; instruction: string; instances: { input: string }[] };
        const input = task.instances[0]?.input ?? '';
        const text = tidy(input ? `${task.instruction}\n\n${input}` : task.instruction);
        out.push({
          text,
          label: 0,
          source: 'self_instruct',
          lang: 'en',
          kind: 'prompt',
          group: `self-instruct:${task.id}`,
        });
      }
    }
    const templateFiles = listFiles(pin, 'data/finetuning/t0_train_50k/data_per_template/').filter((f) =>
      f.endsWith('.jsonl'),
    );
    const texts = readMany(pin, templateFiles); // files the snapshot left out (large) are simply absent
    for (const file of templateFiles) {
      const content = texts.get(file);
      if (content === undefined) continue;
      const lines = content.split('\n').filter(Boolean);
      const template = file
        .split('/')
        .pop()!
        .replace(/\.jsonl$/, '');
      for (const line of new Rng(`t0-${template}`).sample(lines, T0_PER_TEMPLATE)) {
        const row = JSON.parse(line) as { prompt?: string };
        const text = tidy(row.prompt ?? '');
        if (text.length < 20) continue;
        out.push({ text, label: 0, source: 'self_instruct', lang: 'en', kind: 'prompt', group: `t0:${template}` });
      }
    }
    return out;
  },
};

export const articlePages: Source = {
  info: {
    id: 'article_pages',
    repo: 'scrapinghub/article-extraction-benchmark',
    commit: '4a3bc979f76c0df73cb95fe272e2fc1b96f9f010',
    licence: 'MIT',
    files: ['html/*.html.gz', 'ground-truth.json'],
    description:
      'real news/blog web pages: raw HTML (capped at 40k chars) and the article text in paragraph windows; one group per page',
    policy: { kind: 'hash', validation: 0.15, test: 0.2 },
  },
  load() {
    const pin = { repo: this.info.repo!, commit: this.info.commit! };
    const truth = JSON.parse(readText(pin, 'ground-truth.json')) as Record<string, { articleBody?: string }>;
    const out: SourceRecord[] = [];
    for (const file of listFiles(pin, 'html/')) {
      if (!file.endsWith('.html.gz')) continue;
      const id = file
        .split('/')
        .pop()!
        .replace(/\.html\.gz$/, '');
      const html = gunzipSync(readBuffer(pin, file)).toString('utf8');
      const body = truth[id]?.articleBody ?? htmlToText(html);
      const lang = guessLang(body);
      out.push({ text: capHtml(html), label: 0, source: 'article_pages', lang, kind: 'html', group: `page:${id}` });
      for (const window of paragraphWindows(tidy(body), 1500, 120)) {
        out.push({ text: window, label: 0, source: 'article_pages', lang, kind: 'content', group: `page:${id}` });
      }
    }
    return out;
  },
};

const WEB_TEXT_WINDOWS = 4;

export const webPages: Source = {
  info: {
    id: 'web_pages',
    repo: 'adbar/trafilatura',
    commit: 'e90b0ef51ab026fdb905fb6c5b3c84dd3d784fd5',
    licence: 'Apache-2.0 (repository; pages are test fixtures of public sites, read at build time, not redistributed)',
    files: ['tests/cache/*.html', 'tests/eval/*.html'],
    description: `real web pages of news sites, blogs, shops, forums and public bodies (many German, some French, Polish, Chinese): raw HTML (capped at 40k chars) and up to ${WEB_TEXT_WINDOWS} text windows; one group per page`,
    policy: { kind: 'hash', validation: 0.15, test: 0.2 },
  },
  load() {
    const pin = { repo: this.info.repo!, commit: this.info.commit! };
    const files = [...listFiles(pin, 'tests/cache/'), ...listFiles(pin, 'tests/eval/')].filter((f) =>
      /\.html?$/.test(f),
    );
    const texts = readMany(pin, files);
    const out: SourceRecord[] = [];
    for (const file of files) {
      const html = texts.get(file);
      if (!html || html.length < 500) continue;
      const text = htmlToText(html);
      const lang = guessLang(text);
      const group = `web:${file}`;
      out.push({ text: capHtml(html), label: 0, source: 'web_pages', lang, kind: 'html', group });
      for (const w of new Rng(group).sample(paragraphWindows(text, 1500, 200), WEB_TEXT_WINDOWS)) {
        out.push({ text: w, label: 0, source: 'web_pages', lang, kind: 'content', group });
      }
    }
    return out;
  },
};
