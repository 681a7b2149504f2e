// Letters written in another code, read back as an extra segment: Braille cells ("⠊⠛⠝⠕⠗⠑"), the NATO spelling
// alphabet ("India Golf November Oscar Romeo Echo") and letters buried under stacked combining marks ("Í̖̤ǵ̖̤ń̖̤…",
// "zalgo" text). Jailbreak kits offer all three as encodings a model reads and a word list does not. Each is read only
// where the text is mostly that code, so a Braille sign on a menu, a radio call sign or an accented word stays itself.

/** Grade 1 English Braille, letters only (U+2800 is the blank cell, read as a space). */
const BRAILLE_LETTERS = 'a⠁b⠃c⠉d⠙e⠑f⠋g⠛h⠓i⠊j⠚k⠅l⠇m⠍n⠝o⠕p⠏q⠟r⠗s⠎t⠞u⠥v⠧w⠺x⠭y⠽z⠵';
const BRAILLE = new Map<number, string>();
for (let i = 0; i < BRAILLE_LETTERS.length; i += 2) BRAILLE.set(BRAILLE_LETTERS.charCodeAt(i + 1), BRAILLE_LETTERS[i]!);
BRAILLE.set(0x2800, ' ');
/** Punctuation cells read as a sentence end or a comma; the capital and number signs are dropped. */
BRAILLE.set(0x2832, '.');
BRAILLE.set(0x2802, ',');
BRAILLE.set(0x2826, '?');

/** Fewest Braille letters in a run worth reading: a short sign ("⠑⠭⠊⠞") says nothing to screen. */
const MIN_BRAILLE = 12;

/** Runs of Braille cells (with plain spaces between) read back as letters, one run per line. */
export function brailleText(text: string): string {
  const out: string[] = [];
  for (const m of text.matchAll(/[\u2800-\u28ff][\u2800-\u28ff ]*/g)) {
    let letters = 0;
    let read = '';
    for (const ch of m[0]) {
      const c = ch.charCodeAt(0);
      if (c === 0x20) read += ' ';
      else {
        const l = BRAILLE.get(c);
        if (l === undefined) continue;
        if (l !== ' ') letters++;
        read += l;
      }
    }
    if (letters >= MIN_BRAILLE) out.push(read.replace(/ {2,}/g, ' ').trim());
  }
  return out.join('\n');
}

/** The NATO spelling alphabet, with the spellings people type ("Alpha", "Juliet", "X-ray", "Whisky"). */
const NATO = new Map<string, string>(
  Object.entries({
    alfa: 'a',
    alpha: 'a',
    bravo: 'b',
    charlie: 'c',
    delta: 'd',
    echo: 'e',
    foxtrot: 'f',
    golf: 'g',
    hotel: 'h',
    india: 'i',
    juliett: 'j',
    juliet: 'j',
    kilo: 'k',
    lima: 'l',
    mike: 'm',
    november: 'n',
    oscar: 'o',
    papa: 'p',
    quebec: 'q',
    romeo: 'r',
    sierra: 's',
    tango: 't',
    uniform: 'u',
    victor: 'v',
    whiskey: 'w',
    whisky: 'w',
    xray: 'x',
    'x-ray': 'x',
    yankee: 'y',
    zulu: 'z',
  }),
);

/** Fewest code words in a run: a call sign ("Bravo Two Zero", "Alpha Team") is two or three. */
const MIN_NATO = 10;

/** A run of at least MIN_NATO code words with spaces, slashes or bars between, found by the regular-expression engine
 * (prose is skipped natively; a run shorter than MIN_NATO is given up after at most that many words). */
const NATO_RUN = new RegExp(`(?:\\b(?:${[...NATO.keys()].join('|')})\\b[\\s/|]*){${MIN_NATO},}`, 'gi');

/** Runs of NATO code words read back as letters; "/" (or "|") between them is a space between words. */
export function natoText(text: string): string {
  const out: string[] = [];
  for (const m of text.matchAll(NATO_RUN)) out.push(readNato(m[0]));
  return out.join('\n');
}

/** A run NATO_RUN found (code words and separators only) read back: a word is its letter, "/" or "|" a space. */
function readNato(run: string): string {
  let read = '';
  for (const m of run.matchAll(/[A-Za-z][A-Za-z-]*|[/|]/g)) read += NATO.get(m[0].toLowerCase()) ?? ' ';
  return read.replace(/ {2,}/g, ' ').trim();
}

/** Stacks of two or more combining marks on one Latin, Greek or Cyrillic letter: composed text writes an accent as
 * one character, so stacks are noise over the letters. Scripts that write vowels as marks (Devanagari, Thai) are not
 * read: two marks in a row are ordinary there. */
const MARK_STACK = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]\p{M}{2,}/gu;
/** Fewest stacks for a text to count as buried letters. */
const MIN_STACKS = 8;

/** The text with every combining mark removed, when it is buried under stacks of them; '' otherwise. */
export function unstackedMarks(text: string): string {
  let stacks = 0;
  MARK_STACK.lastIndex = 0;
  while (MARK_STACK.exec(text) !== null) if (++stacks >= MIN_STACKS) break;
  if (stacks < MIN_STACKS) return '';
  return text.normalize('NFD').replace(/\p{M}+/gu, '');
}
