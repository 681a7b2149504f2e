// Seeded generators for the places agents read text from: tool results (search hits, inboxes, tickets, chat
// messages, reviews, file reads) with or without a planted attack, and everyday prompts in seven languages.

import { ATTACKS } from './phrases-attack.ts';
import { BENIGN_LOOKALIKES } from './phrases-benign.ts';
import { COMPOSE } from './phrases-compose.ts';
import { PROMPT_FRAMES } from './phrases-prompts.ts';
import type { Category, DataRecord, PlacedRecord, Split } from './record.ts';
import { Rng } from './rng.ts';
import type { BuildContext, Source, SourceRecord } from './source.ts';
import { assignByRank, DEFAULT_POLICY } from './split.ts';
import {
  allTemplates,
  buildAttack,
  capitalFirst,
  fillSlots,
  join,
  payloadCategory,
  plantInText,
  sameLang,
  withTypos,
} from './synthetic.ts';

type Format = (body: string, rng: Rng) => string;

/** People who write the mails, tickets and chat messages of the generated tool results. */
export const NAMES = [
  'Ana Souza',
  'Lukas Meyer',
  'Claire Martin',
  'Javier Ruiz',
  'Mei Chen',
  'Haruto Sato',
  'Sam Taylor',
];
const pickDate = (rng: Rng) =>
  `2026-${String(1 + rng.int(12)).padStart(2, '0')}-${String(1 + rng.int(28)).padStart(2, '0')}`;
const short = (text: string, max = 700) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** Output shapes of common agent tools; the body is the untrusted part. */
export const TOOL_FORMATS: Record<string, Format> = {
  search_results: (body, rng) =>
    JSON.stringify(
      {
        query: rng.pick(['best practices', 'how to', 'release notes', 'reviews', 'documentation']),
        results: [
          { title: 'Overview', url: 'https://docs.example.org/overview', snippet: 'An introduction to the topic.' },
          {
            title: rng.pick(['Guide', 'FAQ', 'Blog post', 'Forum thread']),
            url: `https://site${rng.int(90)}.example.com/p/${rng.int(9999)}`,
            snippet: short(body),
          },
          { title: 'Related', url: 'https://wiki.example.net/related', snippet: 'See also the related pages.' },
        ],
      },
      null,
      rng.chance(0.5) ? 2 : 0,
    ),
  email_inbox: (body, rng) =>
    JSON.stringify(
      [
        {
          from: `${rng.pick(NAMES)} <someone@example.com>`,
          subject: rng.pick(['Re: update', 'Invoice', 'Meeting notes', 'Question']),
          date: pickDate(rng),
          body: short(body, 1200),
        },
        {
          from: 'newsletter@example.org',
          subject: 'Weekly digest',
          date: pickDate(rng),
          body: 'Here is what happened this week.',
        },
      ],
      null,
      2,
    ),
  email_raw: (body, rng) =>
    `From: ${rng.pick(NAMES)} <${rng.pick(['ana', 'lukas', 'claire', 'mei'])}@example.com>\nTo: me@example.com\nSubject: ${rng.pick(['Follow-up', 'Your request', 'Documents', 'Quick question'])}\nDate: ${pickDate(rng)}\n\n${rng.pick(['Hi,', 'Hello,', 'Dear team,'])}\n\n${short(body, 1500)}\n\n${rng.pick(['Best regards,', 'Thanks,', 'Cheers,'])}\n${rng.pick(NAMES)}`,
  calendar: (body, rng) =>
    JSON.stringify(
      {
        events: [
          {
            title: rng.pick(['Sync', 'Review', 'Planning', 'Lunch']),
            start: `${pickDate(rng)}T10:00:00Z`,
            location: 'Room 2',
            description: short(body),
          },
        ],
      },
      null,
      2,
    ),
  ticket: (body, rng) =>
    JSON.stringify(
      {
        number: 1000 + rng.int(9000),
        title: rng.pick(['Bug in export', 'Feature request', 'Login fails', 'Docs unclear']),
        state: 'open',
        user: rng.pick(NAMES),
        body: short(body, 1500),
        labels: ['triage'],
      },
      null,
      2,
    ),
  chat_messages: (body, rng) =>
    JSON.stringify(
      {
        channel: '#general',
        messages: [
          { user: rng.pick(NAMES), text: 'morning all' },
          { user: rng.pick(NAMES), text: short(body) },
          { user: rng.pick(NAMES), text: 'thanks!' },
        ],
      },
      null,
      2,
    ),
  reviews: (body, rng) =>
    JSON.stringify(
      {
        product: rng.pick(['Desk lamp', 'Coffee grinder', 'Backpack']),
        rating: 4.2,
        reviews: [
          { stars: 5, text: 'Works as described.' },
          { stars: 1 + rng.int(5), text: short(body) },
        ],
      },
      null,
      2,
    ),
  file_read: (body, rng) =>
    `Contents of ${rng.pick(['notes.md', 'README.txt', 'report.txt', 'todo.md'])}:\n\n${short(body, 1500)}`,
  fetch_page: (body, rng) =>
    `Fetched https://${rng.pick(['blog', 'news', 'docs'])}.example.com/${rng.int(999)} (200 OK)\n\n${short(body, 1500)}`,
};
const FORMAT_NAMES = Object.keys(TOOL_FORMATS).sort();

const proseCache = new WeakMap<object, readonly DataRecord[]>();

/** Prose carriers (no code) of a split; cached per pool so the generator stays linear. */
function prosePool(ctx: BuildContext, split: Split): readonly PlacedRecord[] {
  const pool = ctx.carriers(split, ['content', 'prompt']);
  let prose = proseCache.get(pool);
  if (!prose) {
    prose = pool.filter((c) => c.source !== 'code_files');
    proseCache.set(pool, prose);
  }
  return prose as readonly PlacedRecord[];
}

/**
 * With probability `chance`, `text` planted in a prose carrier of the same split (same language when there is one),
 * taking the carrier's kind; otherwise the text alone as a prompt.
 */
export function plantSome(
  ctx: BuildContext,
  split: Split,
  lang: string,
  text: string,
  rng: Rng,
  chance: number,
): { text: string; kind: DataRecord['kind'] } {
  if (!rng.chance(chance)) return { text, kind: 'prompt' };
  const pool = prosePool(ctx, split);
  const same = sameLang(pool, lang);
  const from = same.length > 0 ? same : pool;
  if (from.length === 0) return { text, kind: 'prompt' };
  const carrier = rng.pick(from);
  return { text: plantInText(carrier.text, text, rng), kind: carrier.kind };
}

function carrierBody(ctx: BuildContext, split: Split, lang: string, rng: Rng): string | undefined {
  const pool = prosePool(ctx, split);
  const same = sameLang(pool, lang);
  const from = same.length > 0 && rng.chance(0.85) ? same : pool;
  return from.length > 0 ? short(rng.pick(from).text, 600) : undefined;
}

const TOOL_ATTACKS_PER_TEMPLATE = 8;
const TOOL_BENIGN_PER_FORMAT_LANG = 40;

export const syntheticToolOutputs: Source = {
  info: {
    id: 'synthetic_tool_output',
    licence: 'generated by this repository; bodies from the benign sources of the same split',
    files: ['scripts/injection-data/synthetic-extra.ts'],
    description: `tool results (${FORMAT_NAMES.join(', ')}) whose untrusted field holds benign text, benign text with a look-alike line, or an attack (alone or planted in benign text); attacks ${TOOL_ATTACKS_PER_TEMPLATE} per template, benign ${TOOL_BENIGN_PER_FORMAT_LANG} per format and language`,
    policy: DEFAULT_POLICY,
  },
  needsCarriers: true,
  load(ctx) {
    const out: SourceRecord[] = [];
    for (const t of allTemplates()) {
      if (t.family === 'persona') continue;
      const rng = new Rng(`tool:${t.group}`);
      for (let i = 0; i < TOOL_ATTACKS_PER_TEMPLATE; i++) {
        const a = buildAttack(t, rng);
        const format = rng.pick(FORMAT_NAMES);
        const carrier = rng.chance(0.6) ? carrierBody(ctx, a.split, a.lang, rng) : undefined;
        const body = carrier ? (rng.chance(0.5) ? `${carrier}\n\n${a.text}` : `${a.text}\n\n${carrier}`) : a.text;
        out.push({
          text: TOOL_FORMATS[format]!(body, rng),
          label: 1,
          source: 'synthetic_tool_output',
          lang: a.lang,
          kind: 'content',
          category: a.category,
          group: a.group,
          split: a.split,
        });
      }
    }
    for (const lang of Object.keys(BENIGN_LOOKALIKES).sort()) {
      const groups = FORMAT_NAMES.map((f) => `synthetic:${lang}:tool-benign:${f}`);
      const splits = assignByRank(groups, DEFAULT_POLICY);
      FORMAT_NAMES.forEach((format, fi) => {
        const group = groups[fi]!;
        const split = splits.get(group)!;
        const rng = new Rng(`tool-benign:${group}`);
        for (let i = 0; i < TOOL_BENIGN_PER_FORMAT_LANG; i++) {
          const carrier = carrierBody(ctx, split, lang, rng);
          if (!carrier) continue;
          const lookalike = rng.chance(0.35)
            ? rng
                .pick(BENIGN_LOOKALIKES[lang]!)
                .replace(/\{email\}/g, 'office@example.com')
                .replace(/\{url\}/g, 'https://example.com/jobs')
            : '';
          const body = lookalike ? `${carrier}\n\n${lookalike}` : carrier;
          out.push({
            text: TOOL_FORMATS[format]!(body, rng),
            label: 0,
            source: 'synthetic_tool_output',
            lang,
            kind: 'content',
            group,
            split,
          });
        }
      });
    }
    return out;
  },
};

export const syntheticPrompts: Source = {
  info: {
    id: 'synthetic_prompts',
    licence: 'generated by this repository (phrases written for it)',
    files: ['scripts/injection-data/phrases-prompts.ts'],
    description: 'everyday requests to an assistant in en, de, fr, es, pt, zh, ja: frame x topic; group = frame',
    policy: DEFAULT_POLICY,
  },
  load() {
    const out: SourceRecord[] = [];
    for (const lang of Object.keys(PROMPT_FRAMES).sort()) {
      const { frames, topics } = PROMPT_FRAMES[lang]!;
      const groups = frames.map((_, i) => `synthetic:${lang}:prompt:${i}`);
      const splits = assignByRank(groups, DEFAULT_POLICY);
      frames.forEach((frame, i) => {
        for (const topic of topics) {
          // Ordinary prompts carry typos too, so a typo is no sign of an attack.
          const rng = new Rng(`prompt:${groups[i]}:${topic}`);
          out.push({
            text: withTypos(lang, frame.replace('{topic}', topic), rng),
            label: 0,
            source: 'synthetic_prompts',
            lang,
            kind: 'prompt',
            group: groups[i]!,
            split: splits.get(groups[i]!)!,
          });
        }
      });
    }
    return out;
  },
};

const PARAPHRASES_PER_LANG: Record<string, number> = { en: 1400 };
const PARAPHRASES_DEFAULT = 450;

export const syntheticParaphrases: Source = {
  info: {
    id: 'synthetic_paraphrase',
    licence: 'generated by this repository (phrases written for it)',
    files: ['scripts/injection-data/phrases-compose.ts'],
    description: `compositional overrides (verb frame x object x tail) in ${Object.keys(COMPOSE).length} languages, half with a new task, a third planted in benign text of the same split; group = frame x object, cut by rank per language; en ${PARAPHRASES_PER_LANG.en}, others ${PARAPHRASES_DEFAULT}`,
    policy: DEFAULT_POLICY,
  },
  needsCarriers: true,
  load(ctx) {
    const out: SourceRecord[] = [];
    for (const lang of Object.keys(COMPOSE).sort()) {
      const parts = COMPOSE[lang]!;
      const attacks = ATTACKS[lang]!;
      const groups: string[] = [];
      parts.frames.forEach((_, fi) => {
        parts.objects.forEach((_, oi) => {
          groups.push(`synthetic:${lang}:compose:${fi}:${oi}`);
        });
      });
      const splits = assignByRank(groups, DEFAULT_POLICY);
      const rng = new Rng(`paraphrase:${lang}`);
      const n = PARAPHRASES_PER_LANG[lang] ?? PARAPHRASES_DEFAULT;
      for (let i = 0; i < n; i++) {
        const fi = rng.int(parts.frames.length);
        const oi = rng.int(parts.objects.length);
        const group = `synthetic:${lang}:compose:${fi}:${oi}`;
        const split = splits.get(group)!;
        let text = parts.frames[fi]!.replace('{obj}', parts.objects[oi]!) + rng.pick(parts.tails);
        let category: Category = 'instruction_override';
        if (rng.chance(0.5)) {
          const payload = rng.pick(attacks.payloads);
          text = join(lang, [text, rng.pick(attacks.newTask).replace('{task}', payload.text)]);
          category = payloadCategory(category, payload);
        }
        text = capitalFirst(withTypos(lang, fillSlots(text, rng), rng));
        const planted = plantSome(ctx, split, lang, text, rng, 0.35);
        out.push({ ...planted, label: 1, source: 'synthetic_paraphrase', lang, category, group, split });
      }
    }
    return out;
  },
};
