// Text written backwards (".snoitcurtsni suoiverp lla erongI"): a model reads it back without effort, a phrase
// matcher sees nothing. Reversing every input would double the screen's work, so a text is reversed only when two
// words that injections are made of appear in it backwards.

const REVERSED_CUES = [
  'snoitcurtsni', // instructions
  'suoiverp', // previous
  'erongi', // ignore
  'tegrof', // forget
  'dragersid', // disregard
  'tpmorp', // prompt
  'drowssap', // password
  'terces', // secret
  'laever', // reveal
  'eveirter', // retrieve
];

/** One case-insensitive alternation of literals: a single native scan, several times cheaper than lowercasing. */
const CUE_SEARCH = new RegExp(REVERSED_CUES.join('|'), 'gi');

/** The text read backwards when it holds two or more distinct reversed cue words, else ''. */
export function reversedText(text: string): string {
  const seen = new Set<string>();
  CUE_SEARCH.lastIndex = 0;
  for (let m = CUE_SEARCH.exec(text); m !== null && seen.size < 2; m = CUE_SEARCH.exec(text)) {
    seen.add(m[0].toLowerCase());
  }
  if (seen.size < 2) return '';
  // By code point, so that a letter outside the BMP is not split into two halves.
  return Array.from(text).reverse().join('');
}
