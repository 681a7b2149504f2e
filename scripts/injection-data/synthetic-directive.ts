// Generators for the sixth wave (phrases-directive.ts): directives about the reader's answer slipped into a document
// with little or no address, and forced replies of the password-game kind; the benign side holds the same requests
// made of people, organisations asking for the reader's own details, prompts with a format request, keyword
// replies, and role-play prompts with a jailbreak's framing but a harmless request. New sources, so the earlier splits do not move.
import { generateComposed } from './composed.ts';
import { DIRECTIVE_PHRASES } from './phrases-directive.ts';
import { OUTPUT_PHRASES } from './phrases-output.ts';
import type { Category } from './record.ts';
import type { Rng } from './rng.ts';
import type { BuildContext, Source, SourceRecord } from './source.ts';
import { DEFAULT_POLICY } from './split.ts';
import { fillSlots, join } from './synthetic.ts';

const ATTACKS_PER_LANG: Record<string, number> = { en: 1500 };
const ATTACKS_DEFAULT = 450;
const BENIGN_PER_LANG: Record<string, number> = { en: 1200 };
const BENIGN_DEFAULT = 380;
/** Share of records planted in a benign carrier of the same split, per family (directives live in documents). */
const PLANTED = {
  act: 0.8,
  declarative: 0.8,
  forced: 0.4,
  human: 0.5,
  reader: 0.7,
  prompt: 0.2,
  keyword: 0.5,
  persona: 0,
} as const;

type Family = keyof typeof PLANTED;

const PRODUCTS = ['SafeGuard Pro', 'the NovaMax X2', 'QuickLoan Plus', 'CleanAir 3000', 'the FreshBank app'];
/** Filler a forced reply hides behind in password games: a run of one token. */
const FILLER = ['ö', ']', '#', '🤖', 'lorem', '\\n', '...', '}'];

interface Built {
  text: string;
  group: string;
  category: Category;
  family: Family;
}

const stopOf = (lang: string) => (lang === 'zh' || lang === 'ja' ? '。' : '.');

function slots(lang: string, text: string, rng: Rng): string {
  const c = DIRECTIVE_PHRASES[lang]!;
  const o = OUTPUT_PHRASES[lang]!;
  return fillSlots(
    text
      .replace(/\{resp\}/g, () => rng.pick(c.resp))
      .replace(/\{claim\}/g, () => rng.pick(o.claims))
      .replace(/\{q\}/g, () => rng.pick(o.questions))
      .replace(/\{product\}/g, () => rng.pick(PRODUCTS))
      .replace(/\{lang\}/g, () => rng.pick(c.langs))
      .replace(/\{word\}/g, () => rng.pick(c.words))
      .replace(/\{format\}/g, () => rng.pick(c.formats))
      .replace(/\{topic\}/g, () => rng.pick(c.topics))
      .replace(/\{secret\}/g, () => rng.pick(c.secrets))
      .replace(/\{phone\}/g, () => `+1-800-${100 + rng.int(900)}-${1000 + rng.int(9000)}`),
    rng,
  );
}

const actCategory = (act: string): Category =>
  /\{(url|secret)\}|user's earlier|früheren|Konto|compte|cuenta|conta|账户|アカウント/.test(act)
    ? 'exfiltration'
    : 'task_injection';

function buildAttack(lang: string, family: Family, rng: Rng): Built {
  const c = DIRECTIVE_PHRASES[lang]!;
  if (family === 'declarative') {
    // A declarative reads as its own sentence: only the lead-ins that are sentence adverbs (no trailing verb slot).
    const di = rng.int(c.declaratives.length);
    const lead = rng.chance(0.5) ? '' : rng.pick(c.leads.filter((l) => /[,:：，、]\s?$|^P\.|^PS/.test(l)));
    return {
      text: `${lead}${c.declaratives[di]}`,
      group: `synthetic:${lang}:decl6:${di}`,
      category: actCategory(c.declaratives[di]!),
      family,
    };
  }
  if (family === 'forced') {
    const fi = rng.int(c.forcedFrames.length);
    const si = rng.int(c.says.length);
    const word = rng.pick(c.forcedWords);
    const say = c.says[si]!.replace('{word}', word);
    let text = c.forcedFrames[fi]!.replace(/\{say\}/g, say);
    if (rng.chance(0.3)) text = `${Array.from({ length: 8 + rng.int(40) }, () => rng.pick(FILLER)).join(' ')}\n${text}`;
    return { text, group: `synthetic:${lang}:forced6:${fi}:${si}`, category: 'task_injection', family };
  }
  const li = rng.int(c.leads.length);
  const ai = rng.int(c.acts.length);
  return {
    text: `${c.leads[li]}${c.acts[ai]}${stopOf(lang)}`,
    group: `synthetic:${lang}:act6:${li}:${ai}`,
    category: actCategory(c.acts[ai]!),
    family: 'act',
  };
}

function buildBenign(lang: string, family: Family, rng: Rng): Built {
  const c = DIRECTIVE_PHRASES[lang]!;
  if (family === 'reader') {
    const ri = rng.int(c.readerRequests.length);
    const text = c.readerRequests[ri]!.replace('{info}', rng.pick(c.readerInfo));
    return { text, group: `synthetic:${lang}:reader6b:${ri}`, category: 'task_injection', family };
  }
  if (family === 'prompt') {
    const qi = rng.int(c.userQuestions.length);
    const fi = rng.int(c.userFormats.length);
    const sep = lang === 'zh' || lang === 'ja' ? '' : ' ';
    return {
      text: `${c.userQuestions[qi]}${sep}${c.userFormats[fi]}`,
      group: `synthetic:${lang}:prompt6b:${qi}:${fi}`,
      category: 'task_injection',
      family,
    };
  }
  if (family === 'persona') {
    // Prompts stand alone: they are what a user sends, not text inside a document.
    const oi = rng.int(c.personaOpeners.length);
    const ri = rng.int(c.personaRequests.length);
    const text = join(lang, [
      c.personaOpeners[oi]!.replace('{role}', rng.pick(c.personaRoles)),
      rng.pick(c.personaWorlds),
      c.personaRequests[ri]!,
      rng.pick(c.personaClosers),
    ]);
    return { text, group: `synthetic:${lang}:persona6b:${oi}:${ri}`, category: 'role_play_jailbreak', family };
  }
  if (family === 'keyword') {
    const ki = rng.int(c.keywordFrames.length);
    const text = c.keywordFrames[ki]!.replace('{kw}', rng.pick(c.keywords)).replace('{why}', rng.pick(c.keywordWhy));
    return { text, group: `synthetic:${lang}:keyword6b:${ki}`, category: 'task_injection', family };
  }
  const fi = rng.int(c.humanFrames.length);
  const hi = rng.int(c.humanActs.length);
  const text = c.humanFrames[fi]!.replace('{to}', rng.pick(c.humanTo)).replace('{hact}', c.humanActs[hi]!);
  return { text, group: `synthetic:${lang}:human6b:${fi}:${hi}`, category: 'task_injection', family: 'human' };
}

/** Every group a generator can produce for a language, so the rank split sees them all up front. */
function groupsOf(lang: string, benign: boolean): string[] {
  const c = DIRECTIVE_PHRASES[lang]!;
  const out: string[] = [];
  const grid = (name: string, a: number, b: number) => {
    for (let i = 0; i < a; i++) for (let j = 0; j < b; j++) out.push(`synthetic:${lang}:${name}:${i}:${j}`);
  };
  const list = (name: string, a: number) => {
    for (let i = 0; i < a; i++) out.push(`synthetic:${lang}:${name}:${i}`);
  };
  if (benign) {
    grid('human6b', c.humanFrames.length, c.humanActs.length);
    list('reader6b', c.readerRequests.length);
    grid('prompt6b', c.userQuestions.length, c.userFormats.length);
    list('keyword6b', c.keywordFrames.length);
    grid('persona6b', c.personaOpeners.length, c.personaRequests.length);
  } else {
    grid('act6', c.leads.length, c.acts.length);
    list('decl6', c.declaratives.length);
    grid('forced6', c.forcedFrames.length, c.says.length);
  }
  return out;
}

const ATTACK_FAMILIES: readonly Family[] = ['act', 'act', 'act', 'act', 'act', 'declarative', 'declarative', 'forced'];
const BENIGN_FAMILIES: readonly Family[] = [
  'human',
  'human',
  'human',
  'reader',
  'reader',
  'prompt',
  'prompt',
  'keyword',
  'persona',
  'persona',
  'persona',
];

function generate(ctx: BuildContext, benign: boolean): SourceRecord[] {
  return generateComposed(ctx, {
    source: benign ? 'synthetic_benign_directive' : 'synthetic_response_directive',
    label: benign ? 0 : 1,
    langs: Object.keys(DIRECTIVE_PHRASES),
    groupsOf: (lang) => groupsOf(lang, benign),
    count: (lang) => (benign ? (BENIGN_PER_LANG[lang] ?? BENIGN_DEFAULT) : (ATTACKS_PER_LANG[lang] ?? ATTACKS_DEFAULT)),
    families: benign ? BENIGN_FAMILIES : ATTACK_FAMILIES,
    build: (lang, family, rng) => (benign ? buildBenign(lang, family, rng) : buildAttack(lang, family, rng)),
    fill: slots,
    plantChance: (built) => PLANTED[built.family],
  });
}

const LANGS = Object.keys(DIRECTIVE_PHRASES).length;

export const syntheticResponseDirective: Source = {
  info: {
    id: 'synthetic_response_directive',
    licence: 'generated by this repository (phrases written for it)',
    files: ['scripts/injection-data/phrases-directive.ts'],
    description: `sixth wave: directives about the reader's answer with little or no address (lead-in x act: links, ads, made-up claims, other languages, ciphers, omissions, requests for the user's secrets; and "your answer must ..." declaratives), and forced replies of the password-game kind behind fake end-of-input lines or filler tokens, in ${LANGS} languages; directives planted in benign text of the same split 80 % of the time, forced replies 40 %; group = lead-in x act / declarative / frame x reply, cut by rank per language`,
    policy: DEFAULT_POLICY,
  },
  needsCarriers: true,
  load: (ctx) => generate(ctx, false),
};

export const syntheticBenignDirective: Source = {
  info: {
    id: 'synthetic_benign_directive',
    licence: 'generated by this repository (phrases written for it)',
    files: ['scripts/injection-data/phrases-directive.ts'],
    description: `look-alikes of the sixth wave: requests about a reply to a person (customer, landlord, cover letter), organisations asking the reader for their own details ("in your response, please include your order number"), prompts with a format request, keyword replies ("Reply YES to confirm"), and role-play prompts with a jailbreak's framing (persona, fictional world, "stay in character", "begin your reply with ...") for a harmless request, never planted, in ${LANGS} languages, planted like the attacks`,
    policy: DEFAULT_POLICY,
  },
  needsCarriers: true,
  load: (ctx) => generate(ctx, true),
};
