// Encodings and character tricks attackers use to hide instructions from filters and people.
export type Transform = 'base64' | 'rot13' | 'reverse' | 'leet' | 'homoglyph' | 'zero_width' | 'spaced' | 'fullwidth';
export const TRANSFORMS: Transform[] = [
  'base64',
  'rot13',
  'reverse',
  'leet',
  'homoglyph',
  'zero_width',
  'spaced',
  'fullwidth',
];
/** Transforms that need a "decode this" lead-in to make sense to a model. */
export const NEEDS_LEAD_IN = new Set<Transform>(['base64', 'rot13', 'reverse']);

const LEET: Record<string, string> = { a: '4', e: '3', i: '1', o: '0', s: '5', t: '7' };
// Latin letters and Cyrillic/Greek look-alikes.
const HOMOGLYPHS: Record<string, string> = {
  a: 'а',
  c: 'с',
  e: 'е',
  i: 'і',
  o: 'о',
  p: 'р',
  x: 'х',
  y: 'у',
  A: 'Α',
  B: 'Β',
  E: 'Ε',
  I: 'Ι',
  O: 'Ο',
  T: 'Τ',
};
const ZERO_WIDTH = ['\u200b', '\u200c', '\u200d', '\u2060'];

export function applyTransform(text: string, t: Transform, pick: (n: number) => number): string {
  switch (t) {
    case 'base64':
      return Buffer.from(text, 'utf8').toString('base64');
    case 'rot13':
      return text.replace(/[a-z]/gi, (c) => {
        const base = c <= 'Z' ? 65 : 97;
        return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
      });
    case 'reverse':
      return [...text].reverse().join('');
    case 'leet':
      return text.replace(/[aeiost]/gi, (c) => (pick(3) > 0 ? (LEET[c.toLowerCase()] ?? c) : c));
    case 'homoglyph':
      return text.replace(/[a-zA-Z]/g, (c) => (pick(2) === 0 ? (HOMOGLYPHS[c] ?? c) : c));
    case 'zero_width':
      return [...text].map((c) => (c !== ' ' && pick(2) === 0 ? c + ZERO_WIDTH[pick(ZERO_WIDTH.length)] : c)).join('');
    case 'spaced':
      return text
        .split(' ')
        .map((w) => (w.length > 3 && pick(2) === 0 ? [...w].join(' ') : w))
        .join('  ');
    case 'fullwidth':
      return text.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
  }
}

/** Unicode tag characters (U+E0020..U+E007E): invisible when rendered, still read by some models. */
export function toTagCharacters(text: string): string {
  return [...text]
    .map((c) => {
      const code = c.charCodeAt(0);
      return code >= 0x20 && code <= 0x7e ? String.fromCodePoint(0xe0000 + code) : '';
    })
    .join('');
}

/** A typo of the kind people make: drops, doubles or swaps one letter in one longer word. */
export function addTypo(text: string, pick: (n: number) => number): string {
  const words = text.split(' ');
  const candidates = words.map((w, i) => (/^[\p{L}]{5,}$/u.test(w) ? i : -1)).filter((i) => i >= 0);
  if (candidates.length === 0) return text;
  const idx = candidates[pick(candidates.length)]!;
  const w = words[idx]!;
  const at = 1 + pick(w.length - 2);
  const kind = pick(3);
  words[idx] =
    kind === 0
      ? w.slice(0, at) + w.slice(at + 1)
      : kind === 1
        ? w.slice(0, at) + w[at] + w.slice(at)
        : w.slice(0, at - 1) + w[at] + w[at - 1] + w.slice(at + 1);
  return words.join(' ');
}
