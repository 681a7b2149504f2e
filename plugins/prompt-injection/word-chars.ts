// Character classes and word folding of the tokenizer: which code points make words, which are CJK (a token each),
// and how a word with digits or look-alike letters folds to plain Latin.

/**
 * Han, kana and CJK punctuation-free scripts have no spaces between words, so the tokenizer makes every such character
 * a token of its own and phrases are matched character by character (gaps count characters). Hangul is written with
 * spaces and stays word-based.
 */
export function isCjk(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) || // CJK unified ideographs
    (cp >= 0x3400 && cp <= 0x4dbf) || // extension A
    (cp >= 0xf900 && cp <= 0xfaff) || // compatibility ideographs
    (cp >= 0x3040 && cp <= 0x30ff) || // hiragana, katakana
    (cp >= 0x31f0 && cp <= 0x31ff) || // katakana phonetic extensions
    cp === 0x3005 // 々 (iteration mark)
  );
}

let wordTable: Uint8Array | undefined;

/** 1 for letters, marks and digits in the BMP. Built once; a per-character regex test would dominate the run time. */
export function table(): Uint8Array {
  if (wordTable) return wordTable;
  const t = new Uint8Array(65536);
  const re = /[\p{L}\p{M}\p{N}]/u;
  for (let cp = 0; cp < 65536; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    if (cp < 128) {
      t[cp] = (cp >= 0x30 && cp <= 0x39) || (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a) ? 1 : 0;
    } else if (re.test(String.fromCharCode(cp))) {
      t[cp] = 1;
    }
  }
  wordTable = t;
  return t;
}

/** Latin look-alikes from Cyrillic and Greek, applied only inside tokens that also contain ASCII letters. */
const CONFUSABLE: Record<string, string> = {
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  һ: 'h',
  ԛ: 'q',
  ԝ: 'w',
  ɡ: 'g',
  ο: 'o',
  α: 'a',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ρ: 'p',
  τ: 't',
  υ: 'u',
};

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };

export function foldWord(w: string): string {
  let ascii = false;
  let other = false;
  let digit = false;
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    if (c >= 0x61 && c <= 0x7a) ascii = true;
    else if (c >= 0x30 && c <= 0x39) digit = true;
    else if (c >= 128) other = true;
  }
  if (!ascii || (!other && !digit)) return w;
  let out = '';
  for (const ch of w) out += CONFUSABLE[ch] ?? (digit ? (LEET[ch] ?? ch) : ch);
  return out;
}
