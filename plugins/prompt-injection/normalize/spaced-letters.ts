// Words spelled one letter at a time ("I-g-n-o-r-e a-l-l p-r-e-v-i-o-u-s …", "i.g.n.o.r.e", "s_a_y") read as a
// sentence to a model and as single letters to a phrase matcher. A run is read back when its letters are joined by
// one separator character used throughout, and words are parted by white space or by the separator doubled.

/** Separators seen between spelled letters; white space only counts as one when words are parted by two or more. */
const SEPARATORS = '-._*|/+~ ';

/** Shorter runs are initials and abbreviations ("U.S.A.", "e.g."). */
const MIN_LETTERS = 8;

/** At most this many characters of spelled-out text are read per input. */
const BUDGET = 64 * 1024;

/** A letter: ASCII, or any code point past Latin-1 punctuation up to CJK (accents, Greek, Cyrillic): a cheap \p{L}. */
function letterAt(text: string, k: number): boolean {
  const c = text.charCodeAt(k);
  return ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) || (c >= 0xc0 && c !== 0xd7 && c !== 0xf7 && c < 0x2000);
}

const LETTER = 'A-Za-z\\u00c0-\\u1fff';

/** Five letters, one separator character between them: where a spelled run starts (a native scan, ~2 ms per MB). */
const START = new RegExp(
  `[${LETTER}]([${SEPARATORS.replace(/[-/]/g, '\\$&')}])[${LETTER}]\\1[${LETTER}]\\1[${LETTER}]\\1[${LETTER}]`,
  'g',
);

function runStart(text: string, from: number): number {
  START.lastIndex = from;
  return START.exec(text)?.index ?? -1;
}

/** The spelled-out runs of `text` read back as words, one run per line; '' when there are none. */
export function spacedLetters(text: string): string {
  const out: string[] = [];
  let budget = BUDGET;
  for (let at = runStart(text, 0); at >= 0 && budget > 0; ) {
    const sep = text[at + 1]!;
    const isLetter = (k: number) => k < text.length && letterAt(text, k);
    const words: string[] = [];
    let word = '';
    let letters = 0;
    let i = at;
    for (;;) {
      word += text[i];
      letters++;
      i++;
      // With a space as separator, "x yz" ends the run: y starts an ordinary word.
      if (text[i] === sep && isLetter(i + 1) && !(sep === ' ' && isLetter(i + 2))) {
        i++;
        continue;
      }
      words.push(word);
      word = '';
      // A word break: white space or the separator, two or more when the separator is a space, at most four.
      let gap = 0;
      while (gap < 5 && (text[i + gap] === sep || text[i + gap] === ' ' || text[i + gap] === '\n')) gap++;
      const spelledNext = isLetter(i + gap) && !isLetter(i + gap + 1);
      if (gap === 0 || gap > 4 || (sep === ' ' && gap < 2) || !spelledNext) break;
      i += gap;
    }
    budget -= i - at;
    if (letters >= MIN_LETTERS) out.push(words.join(' '));
    at = runStart(text, i);
  }
  return out.join('\n');
}
