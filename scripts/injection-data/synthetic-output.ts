// Generators for the fifth wave (phrases-output.ts): notes that steer the reading AI's answer, foreign questions to
// answer "instead", switches into a made-up mode, encoded tasks to decode and obey, and second tasks slipped into a
// paragraph; the benign side holds the same directives addressed to people, real device and software modes,
// encodings explained, exam instructions and a headline trope. New sources, so the earlier splits do not move.
import { generateComposed } from './composed.ts';
import { ATTACKS } from './phrases-attack.ts';
import { OUTPUT_PHRASES } from './phrases-output.ts';
import type { Category } from './record.ts';
import type { Rng } from './rng.ts';
import type { BuildContext, Source, SourceRecord } from './source.ts';
import { DEFAULT_POLICY } from './split.ts';
import { fillSlots, join } from './synthetic.ts';

const ATTACKS_PER_LANG: Record<string, number> = { en: 1300 };
const ATTACKS_DEFAULT = 430;
const BENIGN_PER_LANG: Record<string, number> = { en: 700 };
const BENIGN_DEFAULT = 260;
/** Share of records planted in a benign carrier of the same split, per family (steering notes live in content). */
const PLANTED = { steer: 0.6, instead: 0.6, mode: 0.3, decode: 0.3, headline: 0.3, secondary: 0.8 } as const;

type Family = keyof typeof PLANTED;

const PRODUCTS = ['SafeGuard Pro', 'the NovaMax X2', 'QuickLoan Plus', 'CleanAir 3000', 'the FreshBank app'];
const BENIGN_BLOBS = [
  'aGVsbG8gd29ybGQ=',
  'dXNlcjpqZG9l',
  '6a 64 6f 65',
  'Y2hlY2tvdXQtMjAyNg==',
  'eyJhbGciOiJIUzI1NiJ9',
];

interface Built {
  text: string;
  group: string;
  category: Category;
  family: Family;
}

function slots(lang: string, text: string, rng: Rng): string {
  const c = OUTPUT_PHRASES[lang]!;
  return fillSlots(
    text
      .replace(/\{claim\}/g, () => rng.pick(c.claims))
      .replace(/\{product\}/g, () => rng.pick(PRODUCTS))
      .replace(/\{phone\}/g, () => `+1-800-${100 + rng.int(900)}-${1000 + rng.int(9000)}`),
    rng,
  );
}

/** The blob a decode frame names: hex, reversed text or (by default) base64 of `payload`. */
function encodeFor(frame: string, payload: string): string {
  if (/\bhex\b/i.test(frame)) return Buffer.from(payload, 'utf8').toString('hex');
  if (/backwards|rückwärts/i.test(frame)) return [...payload].reverse().join('');
  return Buffer.from(payload, 'utf8').toString('base64');
}

function buildAttack(lang: string, family: Family, rng: Rng): Built {
  const c = OUTPUT_PHRASES[lang]!;
  if (family === 'steer') {
    const fi = rng.int(c.aiFrames.length);
    const si = rng.int(c.steer.length);
    const text = c.aiFrames[fi]!.replace('{do}', c.steer[si]!);
    const category: Category = /\{(url|email)\}|login|Zugangsdaten|identifiants|acceso|登录|ログイン/.test(c.steer[si]!)
      ? 'exfiltration'
      : 'task_injection';
    return { text, group: `synthetic:${lang}:steer5:${fi}:${si}`, category, family };
  }
  if (family === 'instead') {
    const ii = rng.int(c.instead.length);
    const qi = rng.int(c.questions.length);
    const text = c.instead[ii]!.replace('{q}', c.questions[qi]!);
    return { text, group: `synthetic:${lang}:instead5:${ii}:${qi}`, category: 'task_injection', family };
  }
  if (family === 'mode') {
    const mi = rng.int(c.modes.length);
    const ci = rng.int(c.modeCaps.length);
    const text = join(lang, [c.modes[mi]!, c.modeCaps[ci]!]);
    const category: Category = /hidden|versteckten|cachées|ocultas|隠された|隐藏/.test(c.modeCaps[ci]!)
      ? 'system_prompt_leak'
      : 'role_play_jailbreak';
    return { text, group: `synthetic:${lang}:mode5:${mi}:${ci}`, category, family };
  }
  if (family === 'secondary') {
    const li = rng.int(c.secondaryLeads.length);
    const ai = rng.int(c.secondaryActs.length);
    const stop = lang === 'zh' || lang === 'ja' ? '。' : '.';
    const act = c.secondaryActs[ai]!.replace('{word}', () => rng.pick(c.secondaryWords)).replace('{lang}', () =>
      rng.pick(c.secondaryLangs),
    );
    const category: Category = /\{url\}/.test(c.secondaryActs[ai]!) ? 'exfiltration' : 'task_injection';
    return {
      text: `${c.secondaryLeads[li]}${act}${stop}`,
      group: `synthetic:${lang}:second5:${li}:${ai}`,
      category,
      family,
    };
  }
  const di = rng.int(c.decode.length);
  const payload = rng.pick(ATTACKS[lang]!.payloads);
  const frame = c.decode[di]!;
  const text = frame.replace('{blob}', encodeFor(frame, fillSlots(payload.text, rng)));
  return { text, group: `synthetic:${lang}:decode5:${di}`, category: 'obfuscation', family };
}

function buildBenign(lang: string, family: Family, rng: Rng): Built {
  const c = OUTPUT_PHRASES[lang]!;
  if (family === 'mode') {
    const mi = rng.int(c.benignModes.length);
    return {
      text: c.benignModes[mi]!,
      group: `synthetic:${lang}:mode5b:${mi}`,
      category: 'role_play_jailbreak',
      family,
    };
  }
  if (family === 'decode') {
    const di = rng.int(c.benignDecode.length);
    const text = c.benignDecode[di]!.replace('{blob}', rng.pick(BENIGN_BLOBS));
    return { text, group: `synthetic:${lang}:decode5b:${di}`, category: 'obfuscation', family };
  }
  if (family === 'secondary') {
    const ai = rng.int(c.assignments.length);
    return { text: c.assignments[ai]!, group: `synthetic:${lang}:second5b:${ai}`, category: 'task_injection', family };
  }
  if (family === 'headline') {
    const hi = rng.int(c.headlineSubjects.length);
    const ti = rng.int(c.topics.length);
    const stop = lang === 'zh' || lang === 'ja' ? '。' : '.';
    const text = `${c.headlineSubjects[hi]!.replace('{topic}', c.topics[ti]!)}${rng.pick(c.headlinePredicates)}${stop}`;
    return { text, group: `synthetic:${lang}:headline5b:${hi}:${ti}`, category: 'instruction_override', family };
  }
  const fi = rng.int(c.humanFrames.length);
  const si = rng.int(c.benignSteer.length);
  const text = c.humanFrames[fi]!.replace('{do}', c.benignSteer[si]!);
  return { text, group: `synthetic:${lang}:steer5b:${fi}:${si}`, category: 'task_injection', family: 'steer' };
}

/** Every group a generator can produce for a language, so the rank split sees them all up front. */
function groupsOf(lang: string, benign: boolean): string[] {
  const c = OUTPUT_PHRASES[lang]!;
  const out: string[] = [];
  const grid = (name: string, a: number, b: number) => {
    for (let i = 0; i < a; i++) for (let j = 0; j < b; j++) out.push(`synthetic:${lang}:${name}:${i}:${j}`);
  };
  const list = (name: string, a: number) => {
    for (let i = 0; i < a; i++) out.push(`synthetic:${lang}:${name}:${i}`);
  };
  if (benign) {
    grid('steer5b', c.humanFrames.length, c.benignSteer.length);
    list('mode5b', c.benignModes.length);
    list('decode5b', c.benignDecode.length);
    grid('headline5b', c.headlineSubjects.length, c.topics.length);
    list('second5b', c.assignments.length);
  } else {
    grid('steer5', c.aiFrames.length, c.steer.length);
    grid('instead5', c.instead.length, c.questions.length);
    grid('mode5', c.modes.length, c.modeCaps.length);
    list('decode5', c.decode.length);
    grid('second5', c.secondaryLeads.length, c.secondaryActs.length);
  }
  return out;
}

const ATTACK_FAMILIES: readonly Family[] = [
  'steer',
  'steer',
  'steer',
  'instead',
  'mode',
  'decode',
  'secondary',
  'secondary',
  'secondary',
];
const BENIGN_FAMILIES: readonly Family[] = [
  'steer',
  'steer',
  'steer',
  'mode',
  'mode',
  'decode',
  'headline',
  'headline',
  'secondary',
  'secondary',
];

function generate(ctx: BuildContext, benign: boolean): SourceRecord[] {
  return generateComposed(ctx, {
    source: benign ? 'synthetic_benign_output' : 'synthetic_output_hijack',
    label: benign ? 0 : 1,
    langs: Object.keys(OUTPUT_PHRASES),
    groupsOf: (lang) => groupsOf(lang, benign),
    count: (lang) => (benign ? (BENIGN_PER_LANG[lang] ?? BENIGN_DEFAULT) : (ATTACKS_PER_LANG[lang] ?? ATTACKS_DEFAULT)),
    families: benign ? BENIGN_FAMILIES : ATTACK_FAMILIES,
    build: (lang, family, rng) => (benign ? buildBenign(lang, family, rng) : buildAttack(lang, family, rng)),
    fill: slots,
    plantChance: (built) => PLANTED[built.family],
  });
}

const LANGS = Object.keys(OUTPUT_PHRASES).length;

export const syntheticOutputHijack: Source = {
  info: {
    id: 'synthetic_output_hijack',
    licence: 'generated by this repository (phrases written for it)',
    files: ['scripts/injection-data/phrases-output.ts'],
    description: `fifth wave: notes addressed to the reading AI that slant its answer (frame x directive, with made-up claims, links and phone numbers), foreign questions to answer instead of the user's, switches into a made-up mode that lifts the rules, encoded tasks to decode and obey, and second tasks slipped into a paragraph with no address, in ${LANGS} languages; second tasks planted in benign text of the same split 80 % of the time, steering notes and foreign questions 60 %, the others 30 %; group = frame x directive / phrase x question / mode x capability / decode frame / lead-in x act, cut by rank per language`,
    policy: DEFAULT_POLICY,
  },
  needsCarriers: true,
  load: (ctx) => generate(ctx, false),
};

export const syntheticBenignOutput: Source = {
  info: {
    id: 'synthetic_benign_output',
    licence: 'generated by this repository (phrases written for it)',
    files: ['scripts/injection-data/phrases-output.ts'],
    description: `look-alikes of the fifth wave: the same kind of directives addressed to people (support macros, writing tips, front-desk and teaching notes), documentation of real device and software modes, encoded values explained, exam and assignment instructions, and the "everything you were told about {topic} is wrong" headline trope, in ${LANGS} languages, planted like the attacks`,
    policy: DEFAULT_POLICY,
  },
  needsCarriers: true,
  load: (ctx) => generate(ctx, true),
};
