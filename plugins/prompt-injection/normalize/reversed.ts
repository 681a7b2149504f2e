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

/** The text read backwards when it holds two or more reversed cue words, else ''. */
export function reversedText(text: string): string {
  const lower = text.toLowerCase();
  let cues = 0;
  for (const cue of REVERSED_CUES) if (lower.includes(cue) && ++cues >= 2) break;
  if (cues < 2) return '';
  // By code point, so that a letter outside the BMP is not split into two halves.
  return Array.from(text).reverse().join('');
}
