// Seeded generators: direct attacks per language, obfuscated attacks, indirect attacks planted in benign carriers
// (text and HTML, visible or hidden), and benign look-alike sentences planted the same way so that planting alone
// is no signal. Each phrase template is a group, so train and test hold different templates.
// Over 400 lines on purpose: the four first-wave generators share their slot fillers, typo and planting helpers
// (imported by the later waves); split apart they would pass those helpers around.

import { addTypo, applyTransform, NEEDS_LEAD_IN, TRANSFORMS, toTagCharacters } from './obfuscate.ts';
import { ATTACKS, type AttackPhrases, MODELS, PERSONA_NAMES, SENDERS, TOOLS } from './phrases-attack.ts';
import { ATTACKS_MORE } from './phrases-attack-more.ts';
import { BENIGN_HIDDEN_HTML, BENIGN_LOOKALIKES } from './phrases-benign.ts';
import type { PlacedRecord as Carrier, Category, Split } from './record.ts';
import { Rng } from './rng.ts';
import type { BuildContext, Source, SourceRecord } from './source.ts';
import { assignByRank, DEFAULT_POLICY } from './split.ts';

const LATIN = new Set(['en', 'de', 'fr', 'es', 'pt']);
const DOMAINS = [
  'collect-data.io',
  'api-sync.net',
  'cdn-metrics.org',
  'example-track.com',
  'files-drop.xyz',
  'logs-ingest.app',
];
const WORDS = ['sync', 'upload', 'log', 'c', 'img', 'api/v2/store', 'hook', 'beacon'];

/** A phrase template with its group and the split the group falls in. */
export interface Template {
  lang: string;
  family: string;
  index: number;
  text: string;
  group: string;
  split: Split;
}

/** Templates of one language x family, cut by rank so every split gets some of each stratum. */
function templates(lang: string, family: keyof AttackPhrases, list: readonly string[], wave = ''): Template[] {
  const groups = list.map((_, index) => `synthetic:${lang}:${family}${wave}:${index}`);
  const splits = assignByRank(groups, DEFAULT_POLICY);
  return list.map((text, index) => {
    const group = groups[index]!;
    return { lang, family, index, text, group, split: splits.get(group)! };
  });
}

export function fillSlots(text: string, rng: Rng): string {
  return text
    .replace(/\{url\}/g, () => `https://${rng.pick(DOMAINS)}/${rng.pick(WORDS)}`)
    .replace(/\{email\}/g, () => `${rng.pick(['backup', 'admin', 'support', 'reports', 'j.doe'])}@${rng.pick(DOMAINS)}`)
    .replace(/\{tool\}/g, () => rng.pick(TOOLS))
    .replace(/\{name\}/g, () => rng.pick(PERSONA_NAMES))
    .replace(/\{sender\}/g, () => rng.pick(SENDERS))
    .replace(/\{model\}/g, () => rng.pick(MODELS));
}

/** Joins sentences the way the language writes them (no spaces in Chinese and Japanese). */
export function join(lang: string, parts: string[]): string {
  return parts.filter(Boolean).join(lang === 'zh' || lang === 'ja' ? '' : ' ');
}

/** Sentence-initial payloads read better with a capital letter. */
export function capitalFirst(text: string): string {
  return text.replace(/^(\p{Ll})/u, (c) => c.toUpperCase());
}

/** Category a payload gives its attack: task and role-play payloads keep the frame's category. */
export function payloadCategory(frame: Category, payload: { category: Category }): Category {
  return payload.category !== 'task_injection' && payload.category !== 'role_play_jailbreak' ? payload.category : frame;
}

export function withTypos(lang: string, text: string, rng: Rng): string {
  return LATIN.has(lang) && rng.chance(0.15) ? addTypo(text, (n) => rng.int(n)) : text;
}

interface Attack {
  text: string;
  category: Category;
  lang: string;
  group: string;
  split: Split;
}

/** One attack built around the template `t` (its family decides the shape), with random secondary phrases. */
export function buildAttack(t: Template, rng: Rng): Attack {
  const p = ATTACKS[t.lang]!;
  const payload = rng.pick(p.payloads);
  const task = payload.text;
  let text: string;
  let category: Category = payload.category;
  switch (t.family) {
    case 'override': {
      const lead = rng.pick(p.newTask).replace('{task}', task);
      text = join(t.lang, [t.text, lead]);
      if (payload.category === 'task_injection') category = 'instruction_override';
      break;
    }
    case 'addressed':
      text = t.text.replace('{task}', task);
      if (payload.category === 'task_injection' || payload.category === 'role_play_jailbreak')
        category = 'task_injection';
      break;
    case 'persona':
      text = rng.chance(0.5) ? join(t.lang, [t.text, rng.pick(p.newTask).replace('{task}', task)]) : t.text;
      category = 'role_play_jailbreak';
      break;
    default: // leak
      text = rng.chance(0.3) ? join(t.lang, [rng.pick(p.override), t.text]) : t.text;
      category = 'system_prompt_leak';
  }
  if (rng.chance(0.2)) text = `${rng.pick(p.headers)} ${text}`;
  text = withTypos(t.lang, fillSlots(text, rng), rng);
  text = capitalFirst(text);
  return { text, category, lang: t.lang, group: t.group, split: t.split };
}

const FAMILIES: (keyof AttackPhrases)[] = ['override', 'addressed', 'persona', 'leak'];

export function allTemplates(): Template[] {
  const out: Template[] = [];
  for (const lang of Object.keys(ATTACKS).sort()) {
    for (const family of FAMILIES) out.push(...templates(lang, family, ATTACKS[lang]![family] as string[]));
  }
  // The second wave splits among itself, so the first wave's assignment is unchanged.
  for (const lang of Object.keys(ATTACKS_MORE).sort()) {
    const more = ATTACKS_MORE[lang]!;
    for (const family of ['override', 'addressed', 'leak'] as const) {
      out.push(...templates(lang, family, more[family], '+2'));
    }
  }
  return out;
}

const DIRECT_PER_TEMPLATE = 14;

export const syntheticDirect: Source = {
  info: {
    id: 'synthetic_direct',
    licence: 'generated by this repository (phrases written for it)',
    files: ['scripts/injection-data/phrases-attack.ts', 'scripts/injection-data/phrases-attack-more.ts'],
    description: `direct attacks in ${Object.keys(ATTACKS).length} languages: override, addressed-to-the-model, persona and prompt-leak templates with random payloads, headers and typos; ${DIRECT_PER_TEMPLATE} per template`,
    policy: DEFAULT_POLICY,
  },
  load() {
    const out: SourceRecord[] = [];
    for (const t of allTemplates()) {
      const rng = new Rng(`direct:${t.group}`);
      for (let i = 0; i < DIRECT_PER_TEMPLATE; i++) {
        const a = buildAttack(t, rng);
        out.push({
          text: a.text,
          label: 1,
          source: 'synthetic_direct',
          lang: a.lang,
          kind: 'prompt',
          category: a.category,
          group: a.group,
          split: a.split,
        });
      }
    }
    return out;
  },
};

const OBFUSCATED_PER_TEMPLATE = 4;

export const syntheticObfuscated: Source = {
  info: {
    id: 'synthetic_obfuscated',
    licence: 'generated by this repository',
    files: ['scripts/injection-data/obfuscate.ts'],
    description: `override and leak attacks encoded (${TRANSFORMS.join(', ')}); base64/rot13/reverse come with a decode-and-obey lead-in; group = template`,
    policy: DEFAULT_POLICY,
  },
  load() {
    const out: SourceRecord[] = [];
    for (const t of allTemplates()) {
      if (t.family !== 'override' && t.family !== 'leak') continue;
      const rng = new Rng(`obfuscated:${t.group}`);
      for (let i = 0; i < OBFUSCATED_PER_TEMPLATE; i++) {
        const a = buildAttack(t, rng);
        const transform = rng.pick(TRANSFORMS);
        // Latin-only tricks say nothing on Chinese/Japanese text; those get an encoding instead.
        const usable = LATIN.has(t.lang)
          ? transform
          : rng.pick(['base64', 'reverse', 'zero_width', 'fullwidth'] as const);
        const encoded = applyTransform(a.text, usable, (n) => rng.int(n));
        const text = NEEDS_LEAD_IN.has(usable) ? `${rng.pick(ATTACKS[t.lang]!.decode)}\n${encoded}` : encoded;
        out.push({
          text,
          label: 1,
          source: 'synthetic_obfuscated',
          lang: a.lang,
          kind: 'prompt',
          category: 'obfuscation',
          group: a.group,
          split: a.split,
        });
      }
    }
    return out;
  },
};

// Same-language carrier pools, computed once per context (filtering per record made the build quadratic).
const sameLangCache = new WeakMap<readonly Carrier[], Map<string, readonly Carrier[]>>();
export function sameLang(pool: readonly Carrier[], lang: string): readonly Carrier[] {
  let byLang = sameLangCache.get(pool);
  if (!byLang) {
    byLang = new Map();
    for (const c of pool) byLang.set(c.lang, [...(byLang.get(c.lang) ?? []), c]);
    sameLangCache.set(pool, byLang);
  }
  return byLang.get(lang) ?? [];
}

const codeCache = new WeakMap<object, readonly Carrier[]>();
function codePool(ctx: BuildContext, split: Split): readonly Carrier[] {
  const pool = ctx.carriers(split, ['content']);
  let code = codeCache.get(pool);
  if (!code) {
    code = pool.filter((c) => c.source === 'code_files');
    codeCache.set(pool, code);
  }
  return code;
}

function pickCarrier(ctx: BuildContext, split: Split, lang: string, rng: Rng, html: boolean): Carrier | undefined {
  const pool = ctx.carriers(split, html ? ['html'] : ['content', 'prompt']);
  if (pool.length === 0) return undefined;
  if (rng.chance(0.8)) {
    const same = sameLang(pool, lang);
    if (same.length > 0) return rng.pick(same);
  }
  return rng.pick(pool);
}

/** A line as a comment of the carrier's language (code carriers hide planted lines in comments). */
export function asComment(code: string, line: string, rng: Rng): string {
  const python = /^\s*(def |import |from \S+ import|class \w+[:(])/m.test(code);
  if (python) return rng.chance(0.7) ? `# ${line}` : `"""${line}"""`;
  return rng.chance(0.6) ? `// ${line}` : `/* ${line} */`;
}

/** Places `line` at the start, in the middle (between paragraphs or lines) or at the end of a text carrier. */
export function plantInText(carrier: string, line: string, rng: Rng): string {
  const body = carrier.length > 2500 ? carrier.slice(0, 2500) : carrier;
  const where = rng.int(3);
  if (where === 0) return `${line}\n\n${body}`;
  if (where === 2) return `${body}\n\n${line}`;
  const breaks = [...body.matchAll(/\n+/g)].map((m) => m.index ?? 0);
  const at = breaks.length > 0 ? rng.pick(breaks) : Math.floor(body.length / 2);
  return `${body.slice(0, at)}\n${line}\n${body.slice(at)}`;
}

/** Places an HTML fragment after a closing block tag at the start, middle or end of the page. */
function plantInHtml(html: string, fragment: string, rng: Rng): string {
  const ends = [...html.matchAll(/<\/(p|div|li|section|article|h[1-6])>/gi)].map((m) => (m.index ?? 0) + m[0].length);
  if (ends.length === 0) return `${html}\n${fragment}`;
  const where = rng.int(3);
  const at = where === 0 ? ends[0]! : where === 2 ? ends[ends.length - 1]! : ends[Math.floor(ends.length / 2)]!;
  return `${html.slice(0, at)}${fragment}${html.slice(at)}`;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const HIDDEN_WRAPPERS = [
  (s: string) => `<!-- ${s} -->`,
  (s: string) => `<div style="display:none">${escapeHtml(s)}</div>`,
  (s: string) => `<span style="color:#ffffff;background:#ffffff;font-size:1px">${escapeHtml(s)}</span>`,
  (s: string) => `<p hidden>${escapeHtml(s)}</p>`,
  (s: string) => `<div style="position:absolute;left:-9999px" aria-hidden="true">${escapeHtml(s)}</div>`,
  (s: string) => `<p style="opacity:0;height:0;overflow:hidden">${escapeHtml(s)}</p>`,
  (s: string) => `<meta name="description" content="${escapeHtml(s).replace(/"/g, '&quot;')}">`,
  (s: string) => `<img src="/pixel.gif" alt="${escapeHtml(s).replace(/"/g, '&quot;')}">`,
];

const INDIRECT_PER_TEMPLATE = 24;

export const syntheticIndirect: Source = {
  info: {
    id: 'synthetic_indirect',
    licence: 'generated by this repository; carriers from the benign sources of the same split',
    files: ['scripts/injection-data/synthetic.ts'],
    description: `attacks planted at start/middle/end of benign carriers of the same split: text (visible, or as invisible Unicode tag characters) and HTML (visible paragraph or hidden by comment/CSS/attribute); ${INDIRECT_PER_TEMPLATE} per template`,
    policy: DEFAULT_POLICY,
  },
  needsCarriers: true,
  load(ctx) {
    const out: SourceRecord[] = [];
    for (const t of allTemplates()) {
      if (t.family === 'persona') continue; // persona jailbreaks are typed by users, not planted in pages
      const rng = new Rng(`indirect:${t.group}`);
      for (let i = 0; i < INDIRECT_PER_TEMPLATE; i++) {
        const a = buildAttack(t, rng);
        const html = rng.chance(0.25);
        // One in ten text attacks goes into source code, as a comment (pull requests, files an agent is asked to fix).
        const code = !html && rng.chance(0.1) ? codePool(ctx, a.split) : [];
        const carrier = code.length > 0 ? rng.pick(code) : pickCarrier(ctx, a.split, a.lang, rng, html);
        if (!carrier) continue;
        let text: string;
        let category = a.category;
        if (html) {
          const hidden = rng.chance(0.7);
          const fragment = hidden ? rng.pick(HIDDEN_WRAPPERS)(a.text) : `<p>${escapeHtml(a.text)}</p>`;
          if (hidden) category = 'hidden_instruction';
          text = plantInHtml(carrier.text, fragment, rng);
        } else if (a.lang === 'en' && rng.chance(0.06)) {
          text = plantInText(carrier.text, toTagCharacters(a.text), rng);
          category = 'hidden_instruction';
        } else {
          text = plantInText(carrier.text, a.text, rng);
        }
        out.push({
          text,
          label: 1,
          source: 'synthetic_indirect',
          lang: a.lang,
          kind: carrier.kind,
          category,
          group: a.group,
          split: a.split,
        });
      }
    }
    return out;
  },
};

const BENIGN_PER_TEMPLATE = 20;
// Neutral lead-ins for encoded benign text (attachments, fixtures, copied messages): encoding alone is no attack.
const BENIGN_ENCODED_LEADS = [
  'Attachment (base64):',
  'Encoded test fixture:',
  'Message body as received:',
  'Copied from the chat export:',
  'Field value:',
];

export const syntheticBenign: Source = {
  info: {
    id: 'synthetic_benign',
    licence: 'generated by this repository; carriers from the benign sources of the same split',
    files: ['scripts/injection-data/phrases-benign.ts'],
    description: `benign look-alike sentences (ignore my last email, run npm install, act as a guide, hidden menus and HTML comments), alone or planted in carriers exactly like the attacks; ${BENIGN_PER_TEMPLATE} per template`,
    policy: DEFAULT_POLICY,
  },
  needsCarriers: true,
  load(ctx) {
    const out: SourceRecord[] = [];
    for (const lang of Object.keys(BENIGN_LOOKALIKES).sort()) {
      const list = BENIGN_LOOKALIKES[lang]!;
      const splits = assignByRank(
        list.map((_, index) => `synthetic:${lang}:benign:${index}`),
        DEFAULT_POLICY,
      );
      list.forEach((sentence, index) => {
        const group = `synthetic:${lang}:benign:${index}`;
        const split = splits.get(group)!;
        const rng = new Rng(`benign:${group}`);
        for (let i = 0; i < BENIGN_PER_TEMPLATE; i++) {
          const extra = rng.chance(0.5) ? [rng.pick(list)] : [];
          // Typos and encodings occur in attacks and in ordinary text alike: benign records get them too, so neither is
          // a label on its own.
          const line = withTypos(lang, fillSlots(join(lang, [sentence, ...extra]), rng), rng);
          const mode = rng.int(5);
          if (mode === 0) {
            out.push({ text: line, label: 0, source: 'synthetic_benign', lang, kind: 'prompt', group, split });
            continue;
          }
          if (mode === 4) {
            const encoded = rng.chance(0.5)
              ? applyTransform(line, 'base64', (n) => rng.int(n))
              : applyTransform(line, rng.pick(['zero_width', 'fullwidth', 'homoglyph'] as const), (n) => rng.int(n));
            const lead = rng.pick(BENIGN_ENCODED_LEADS);
            out.push({
              text: `${lead}\n${encoded}`,
              label: 0,
              source: 'synthetic_benign',
              lang,
              kind: 'content',
              group,
              split,
            });
            continue;
          }
          const html = mode === 3;
          const carrier = pickCarrier(ctx, split, lang, rng, html);
          if (!carrier) continue;
          const text = html
            ? plantInHtml(carrier.text, `<p>${escapeHtml(line)}</p>`, rng)
            : plantInText(
                carrier.text,
                carrier.source === 'code_files' ? asComment(carrier.text, line, rng) : line,
                rng,
              );
          out.push({ text, label: 0, source: 'synthetic_benign', lang, kind: carrier.kind, group, split });
        }
      });
    }
    const hiddenSplits = assignByRank(
      BENIGN_HIDDEN_HTML.map((_, index) => `synthetic:html:benign-hidden:${index}`),
      DEFAULT_POLICY,
    );
    BENIGN_HIDDEN_HTML.forEach((fragment, index) => {
      const group = `synthetic:html:benign-hidden:${index}`;
      const split = hiddenSplits.get(group)!;
      const rng = new Rng(`benign:${group}`);
      for (let i = 0; i < BENIGN_PER_TEMPLATE; i++) {
        const carrier = pickCarrier(ctx, split, 'en', rng, true);
        if (!carrier) continue;
        out.push({
          text: plantInHtml(carrier.text, fragment, rng),
          label: 0,
          source: 'synthetic_benign',
          lang: carrier.lang,
          kind: 'html',
          group,
          split,
        });
      }
    });
    return out;
  },
};
