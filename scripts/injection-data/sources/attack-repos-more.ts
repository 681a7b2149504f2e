// The seventh wave: real attack text from three more pinned public repositories (data files only; no code is read).
// Appended after every earlier source, so no earlier record, split or duplicate choice moves.
import { parse as parseCsv } from 'csv-parse/sync';
import { guessLang } from '../lang.ts';
import { type RepoPin, readText } from '../mirror.ts';
import type { Category } from '../record.ts';
import type { Source, SourceRecord } from '../source.ts';
import { tidy } from '../text.ts';

/** XSafety's language folders that are languages of this build, with the code the records carry. */
const XSAFETY_LANGS: Record<string, string> = { en: 'en', de: 'de', fr: 'fr', sp: 'es', ja: 'ja', zh: 'zh' };

function xsafetyFile(folder: string): string {
  return folder === 'en' ? 'en/Goal_Hijacking_n.csv' : `${folder}/Goal_Hijacking.csv`;
}

function csvRows(pin: RepoPin, file: string): string[] {
  const rows = parseCsv(readText(pin, file), { bom: true, relax_quotes: true, relax_column_count: true }) as string[][];
  return rows.map((r) => tidy(r.join(' ')));
}

/**
 * A goal hijack sets the question aside ("ignore the above and just output …", "don't answer, just output …"). About a
 * sixth of the rows only ask the model to repeat, rephrase or translate a sentence ("Please output: …"), which is a
 * request for content, not an injection, and would teach that "please output:" is an attack. Rows are parallel, so
 * the English row decides for every language.
 */
const SETS_TASK_ASIDE =
  /ignor|disregard|regardless|instead|forget|no need to|(?:don.t|do not) (?:answer|respond|reply|choose|rush|think|follow|consider|care|need)|without answering|rather than|never mind/i;

/**
 * Some translated rows lost the hijacking sentence (only the question is left). Rows are parallel across the
 * language folders, so a row much shorter, relative to its English original, than the language's median ratio is
 * dropped rather than labelled as an attack.
 */
function keptRows(rows: readonly string[], english: readonly string[]): boolean[] {
  const ratios = rows.map((r, i) => r.length / Math.max(1, english[i]?.length ?? 0));
  const sorted = ratios.filter((x) => Number.isFinite(x) && x > 0).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  return ratios.map((x, i) => english[i] !== undefined && x >= 0.6 * median);
}

export const xsafetyGoalHijacking: Source = {
  info: {
    id: 'xsafety_goal_hijacking',
    repo: 'Jarviswang94/Multilingual_safety_benchmark',
    commit: '8c55b6a6cda594cd550a4921513238a2dd40eb5a',
    licence: 'Apache-2.0',
    files: Object.keys(XSAFETY_LANGS).map(xsafetyFile),
    description:
      'XSafety goal hijacking: a question or task, then "ignore the above and just output …", as parallel translations in English, German, French, Spanish, Japanese and Chinese; group = row, so every translation of a row is in one split; rows whose English original does not set the task aside (plain "please repeat: …" requests) and translated rows that lost the hijack are dropped',
    policy: { kind: 'hash', validation: 0.15, test: 0.25 },
  },
  load() {
    const pin = { repo: this.info.repo!, commit: this.info.commit! };
    const english = csvRows(pin, xsafetyFile('en'));
    const out: SourceRecord[] = [];
    for (const [folder, lang] of Object.entries(XSAFETY_LANGS)) {
      const rows = csvRows(pin, xsafetyFile(folder));
      const kept = (folder === 'en' ? rows.map(() => true) : keptRows(rows, english)).map(
        (k, i) => k && SETS_TASK_ASIDE.test(english[i] ?? ''),
      );
      rows.forEach((text, i) => {
        if (!text || !kept[i]) return;
        out.push({
          text,
          label: 1,
          source: 'xsafety_goal_hijacking',
          lang,
          kind: 'prompt',
          category: 'instruction_override',
          group: `xsafety-goal-hijacking:${i}`,
        });
      });
    }
    return out;
  },
};

const EXTRACTION_FILES = ['attacks/generated.json', 'attacks/5-gram-attacks.json'];

export const promptExtraction: Source = {
  info: {
    id: 'prompt_extraction_queries',
    repo: 'y0mingzhang/prompt-extraction',
    commit: 'dc00b2f6d3cef1a2b9c85fe67b8fa2d3354e21cf',
    licence: 'MIT',
    files: EXTRACTION_FILES,
    description:
      'system-prompt extraction queries: hand-written and model-generated ones, and the same with cipher and encoding requests (attacks.json repeats the first five of generated.json and is not read); one group per query, cipher variants grouped by their base query',
    policy: { kind: 'hash', validation: 0.15, test: 0.25 },
  },
  load() {
    const pin = { repo: this.info.repo!, commit: this.info.commit! };
    const out: SourceRecord[] = [];
    const add = (raw: string, group: string) => {
      const text = tidy(raw);
      if (!text) return;
      out.push({
        text,
        label: 1,
        source: 'prompt_extraction_queries',
        lang: guessLang(text),
        kind: 'prompt',
        category: 'system_prompt_leak',
        group,
      });
    };
    const generated = JSON.parse(readText(pin, 'attacks/generated.json')) as string[];
    for (const [i, q] of generated.entries()) add(q, `prompt-extraction:generated:${i}`);
    const ciphers = JSON.parse(readText(pin, 'attacks/5-gram-attacks.json')) as { 'attack-string': string }[];
    // The cipher variants share their first sentence (the base query): that sentence is the group.
    for (const c of ciphers) {
      const s = c['attack-string'];
      add(s, `prompt-extraction:cipher:${s.split('.')[0]}`);
    }
    return out;
  },
};

const EMAIL_REPO: RepoPin = {
  repo: 'CatarinaSeigward/Email-Agent-Prompt-Injection-and-GRPO-Defense',
  commit: '2db1c29134b3cc756e3364ebf52f0c7be3b9bfc1',
};

const EMAIL_CATEGORIES: Record<string, Category> = {
  override: 'instruction_override',
  hidden_injection: 'hidden_instruction',
  exfiltration: 'exfiltration',
};

interface Email {
  from: string;
  subject: string;
  body: string;
}

/** An e-mail as an agent's mail tool hands it over: headers, blank line, body (HTML bodies stay HTML). */
function emailText(e: Email): string {
  return tidy(`From: ${e.from}\nSubject: ${e.subject}\n\n${e.body}`);
}

export const emailAgentAttacks: Source = {
  info: {
    id: 'email_agent_attacks',
    repo: EMAIL_REPO.repo,
    commit: EMAIL_REPO.commit,
    licence: 'MIT',
    files: ['data/attack_seeds.jsonl'],
    description:
      'hand-written attack e-mails for a mail agent (override, hidden HTML/zero-width instructions, exfiltration requests), with their headers',
    policy: { kind: 'hash', validation: 0.15, test: 0.25 },
  },
  load() {
    return readText(EMAIL_REPO, 'data/attack_seeds.jsonl')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => {
        const seed = JSON.parse(l) as Email & { seed_id: string; category: string };
        return {
          text: emailText(seed),
          label: 1 as const,
          source: 'email_agent_attacks',
          lang: 'en',
          kind: seed.body.includes('<') ? ('html' as const) : ('content' as const),
          category: EMAIL_CATEGORIES[seed.category] ?? 'instruction_override',
          group: `email-agent:${seed.seed_id}`,
        };
      });
  },
};

export const emailAgentInbox: Source = {
  notCarrier: true,
  info: {
    id: 'email_agent_inbox',
    repo: EMAIL_REPO.repo,
    commit: EMAIL_REPO.commit,
    licence: 'MIT',
    files: ['data/inbox.json'],
    description: 'the same project’s ordinary inbox (meeting notes, invites, receipts, newsletters), with headers',
    policy: { kind: 'hash', validation: 0.15, test: 0.25 },
  },
  load() {
    const inbox = JSON.parse(readText(EMAIL_REPO, 'data/inbox.json')) as (Email & { id: string })[];
    return inbox.map((e) => ({
      text: emailText(e),
      label: 0 as const,
      source: 'email_agent_inbox',
      lang: 'en',
      kind: e.body.includes('<') ? ('html' as const) : ('content' as const),
      group: `email-agent-inbox:${e.id}`,
    }));
  },
};
