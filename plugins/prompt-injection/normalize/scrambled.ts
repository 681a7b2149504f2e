// Text written backwards (".snoitcurtsni suoiverp lla erongI") or in ROT13 ("Vtaber nyy cerivbhf vafgehpgvbaf"): a
// model reads either back without effort, a phrase matcher sees nothing. Unscrambling every input would double the
// screen's work, so a text is read back only when two words injections are made of appear in it scrambled that way.
// Both cue lists are one native scan: ordinary prose holds none of them.

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

const ROT13_CUES = [
  'vtaber', // ignore
  'vafgehpgvbaf', // instructions
  'cerivbhf', // previous
  'sbetrg', // forget
  'qvfertneq', // disregard
  'cebzcg', // prompt
  'cnffjbeq', // password
  'frperg', // secret
  'erirny', // reveal
  'flfgrz', // system
  'ehyrf', // rules
];

/**
 * Two injection words written as one ("previousinstructions", "IGNOREALL"): where words were glued together
 * (glued-words.ts reads them back). Searched in the same scan, so gluing costs no pass of its own.
 */
const GLUED_CUES = [
  'ignoreall',
  'ignoreprevious',
  'ignoreyour',
  'ignorethe',
  'disregardall',
  'disregardprevious',
  'disregardyour',
  'forgetall',
  'forgetyour',
  'forgetprevious',
  'forgeteverything',
  'previousinstructions',
  'priorinstructions',
  'yourinstructions',
  'allinstructions',
  'systemprompt',
  'yourprompt',
  'yourrules',
  'allrules',
  'revealyour',
  'revealthe',
  'printyour',
  'yoursecret',
  'thepassword',
  'yourpassword',
  'secretkey',
];

const IS_ROT13 = new Set(ROT13_CUES);
const IS_GLUED = new Set(GLUED_CUES);

/** One case-insensitive alternation of literals: a single native scan, several times cheaper than lowercasing. */
const CUE_SEARCH = new RegExp([...REVERSED_CUES, ...ROT13_CUES, ...GLUED_CUES].join('|'), 'gi');

/** Glued cues past this many are not kept: a handful is enough to find every glued run worth reading. */
const MAX_GLUED = 32;

export interface Unscrambled {
  /** The text read backwards when it holds two or more distinct reversed cue words, else ''. */
  reversed: string;
  /** The text with its Latin letters rotated by 13 when it holds two or more distinct ROT13 cue words, else ''. */
  rotated: string;
  /** Where two injection words were found written as one (at most MAX_GLUED offsets). */
  gluedAt: number[];
}

function rotate13(text: string): string {
  return text.replace(/[A-Za-z]/g, (ch) => {
    const c = ch.charCodeAt(0);
    const base = c >= 0x61 ? 0x61 : 0x41;
    return String.fromCharCode(((c - base + 13) % 26) + base);
  });
}

export function unscramble(text: string): Unscrambled {
  const reversedCues = new Set<string>();
  const rotatedCues = new Set<string>();
  const gluedAt: number[] = [];
  CUE_SEARCH.lastIndex = 0;
  for (let m = CUE_SEARCH.exec(text); m !== null; m = CUE_SEARCH.exec(text)) {
    const cue = m[0].toLowerCase();
    if (IS_GLUED.has(cue)) {
      if (gluedAt.length < MAX_GLUED) gluedAt.push(m.index);
    } else {
      (IS_ROT13.has(cue) ? rotatedCues : reversedCues).add(cue);
    }
    if (reversedCues.size >= 2 && rotatedCues.size >= 2 && gluedAt.length >= MAX_GLUED) break;
  }
  return {
    // By code point, so that a letter outside the BMP is not split into two halves.
    reversed: reversedCues.size >= 2 ? Array.from(text).reverse().join('') : '',
    rotated: rotatedCues.size >= 2 ? rotate13(text) : '',
    gluedAt,
  };
}
