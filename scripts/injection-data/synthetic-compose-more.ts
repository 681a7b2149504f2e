// Generators for the third wave of compositional phrases (phrases-compose-more.ts): prompt-leak requests, dismissals
// of the earlier instructions and hand-overs to a new task as attacks, and the same leak frames and dismissal
// predicates with benign objects as look-alikes. New sources, so the earlier sources' records and splits do not move.
import { generateComposed } from './composed.ts';
import { ATTACKS } from './phrases-attack.ts';
import { COMPOSE_MORE } from './phrases-compose-more.ts';
import type { Category } from './record.ts';
import type { Rng } from './rng.ts';
import type { BuildContext, Source, SourceRecord } from './source.ts';
import { DEFAULT_POLICY } from './split.ts';
import { capitalFirst, fillSlots, join, payloadCategory } from './synthetic.ts';

const ATTACKS_PER_LANG: Record<string, number> = { en: 900 };
const ATTACKS_DEFAULT = 300;
const BENIGN_PER_LANG: Record<string, number> = { en: 450 };
const BENIGN_DEFAULT = 160;
/** Share of records planted in a benign carrier of the same split (the rest stand alone as prompts). */
const PLANTED = 0.35;

type Family = 'leak' | 'dismiss' | 'switch';

interface Built {
  text: string;
  group: string;
  category: Category;
}

function buildAttack(lang: string, family: Family, rng: Rng): Built {
  const c = COMPOSE_MORE[lang]!;
  const payloads = ATTACKS[lang]!.payloads;
  if (family === 'leak') {
    const fi = rng.int(c.leakFrames.length);
    const oi = rng.int(c.leakObjects.length);
    const text = c.leakFrames[fi]!.replace('{obj}', c.leakObjects[oi]!) + rng.pick(c.tails);
    return { text, group: `synthetic:${lang}:leak3:${fi}:${oi}`, category: 'system_prompt_leak' };
  }
  if (family === 'dismiss') {
    const si = rng.int(c.dismissSubjects.length);
    let text = c.dismissSubjects[si]! + rng.pick(c.dismissPredicates);
    let category: Category = 'instruction_override';
    if (rng.chance(0.6)) {
      const payload = rng.pick(payloads);
      text = join(lang, [text, capitalFirst(payload.text) + (lang === 'zh' || lang === 'ja' ? '。' : '.')]);
      category = payloadCategory(category, payload);
    }
    return { text, group: `synthetic:${lang}:dismiss3:${si}`, category };
  }
  const oi = rng.int(c.switchOpeners.length);
  const hi = rng.int(c.switchHandOvers.length);
  const payload = rng.pick(payloads);
  const text = join(lang, [c.switchOpeners[oi]!, c.switchHandOvers[hi]!.replace('{task}', payload.text)]);
  const category: Category = payload.category === 'role_play_jailbreak' ? 'task_injection' : payload.category;
  return { text, group: `synthetic:${lang}:switch3:${oi}:${hi}`, category };
}

function buildBenign(lang: string, rng: Rng): Built {
  const c = COMPOSE_MORE[lang]!;
  if (rng.chance(0.6)) {
    const fi = rng.int(c.leakFrames.length);
    const oi = rng.int(c.benignLeakObjects.length);
    const text = c.leakFrames[fi]!.replace('{obj}', c.benignLeakObjects[oi]!) + rng.pick(c.tails.slice(0, 2));
    return { text, group: `synthetic:${lang}:leak3b:${fi}:${oi}`, category: 'system_prompt_leak' };
  }
  const si = rng.int(c.benignDismissSubjects.length);
  const text = c.benignDismissSubjects[si]! + rng.pick(c.dismissPredicates);
  return { text, group: `synthetic:${lang}:dismiss3b:${si}`, category: 'instruction_override' };
}

/** Every group a generator can produce for a language, so the rank split sees them all up front. */
function groupsOf(lang: string, benign: boolean): string[] {
  const c = COMPOSE_MORE[lang]!;
  const out: string[] = [];
  const leakObjects = benign ? c.benignLeakObjects : c.leakObjects;
  c.leakFrames.forEach((_, fi) => {
    leakObjects.forEach((_, oi) => {
      out.push(`synthetic:${lang}:leak3${benign ? 'b' : ''}:${fi}:${oi}`);
    });
  });
  const subjects = benign ? c.benignDismissSubjects : c.dismissSubjects;
  subjects.forEach((_, si) => {
    out.push(`synthetic:${lang}:dismiss3${benign ? 'b' : ''}:${si}`);
  });
  if (!benign)
    c.switchOpeners.forEach((_, oi) => {
      c.switchHandOvers.forEach((_, hi) => {
        out.push(`synthetic:${lang}:switch3:${oi}:${hi}`);
      });
    });
  return out;
}

const FAMILIES: readonly Family[] = ['leak', 'leak', 'dismiss', 'switch'];

function generate(ctx: BuildContext, benign: boolean): SourceRecord[] {
  return generateComposed(ctx, {
    source: benign ? 'synthetic_benign_more' : 'synthetic_paraphrase_more',
    label: benign ? 0 : 1,
    langs: Object.keys(COMPOSE_MORE),
    groupsOf: (lang) => groupsOf(lang, benign),
    count: (lang) => (benign ? (BENIGN_PER_LANG[lang] ?? BENIGN_DEFAULT) : (ATTACKS_PER_LANG[lang] ?? ATTACKS_DEFAULT)),
    families: FAMILIES,
    // The family is drawn for benign records too (and not used), as it always was: the draws are the build's bytes.
    build: (lang, family, rng) => (benign ? buildBenign(lang, rng) : buildAttack(lang, family, rng)),
    fill: (_lang, text, rng) => fillSlots(text, rng),
    plantChance: () => PLANTED,
  });
}

export const syntheticParaphrasesMore: Source = {
  info: {
    id: 'synthetic_paraphrase_more',
    licence: 'generated by this repository (phrases written for it)',
    files: ['scripts/injection-data/phrases-compose-more.ts'],
    description: `third wave: prompt-leak requests (frame x object x tail), dismissals of the earlier instructions (subject x predicate, 60 % followed by a payload) and hand-overs to a new task (opener x hand-over x payload) in ${Object.keys(COMPOSE_MORE).length} languages; ${Math.round(PLANTED * 100)} % planted in benign text of the same split; group = frame x object / subject / opener x hand-over, cut by rank per language`,
    policy: DEFAULT_POLICY,
  },
  needsCarriers: true,
  load: (ctx) => generate(ctx, false),
};

export const syntheticBenignMore: Source = {
  info: {
    id: 'synthetic_benign_more',
    licence: 'generated by this repository (phrases written for it)',
    files: ['scripts/injection-data/phrases-compose-more.ts'],
    description: `look-alikes of the third wave: the same leak frames asking for assembly instructions, recipes or house rules, and the same dismissal predicates about an old estimate or address, in ${Object.keys(COMPOSE_MORE).length} languages, planted like the attacks`,
    policy: DEFAULT_POLICY,
  },
  needsCarriers: true,
  load: (ctx) => generate(ctx, true),
};
