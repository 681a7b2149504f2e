/**
 * Interned words of the tokenizer: one string and one small integer id per distinct folded word. Ids let the matcher
 * and the screen cache per-word facts in typed arrays instead of hashing a fresh string per token, and a word made of
 * ASCII letters is looked up straight from the text (hash and compare), so most tokens build no string at all.
 */

export const FNV_OFFSET = 0x811c9dc5 | 0;
export const FNV_PRIME = 0x01000193;
/** The table is emptied (new epoch) before a call once it holds this many words, so it cannot grow without bound. */
const INTERN_LIMIT = 100_000;

let internWords: string[] = [];
/**
 * Open addressing, kept at most half full: four ints per entry (hash, id + 1 or 0 for empty, offset and length of
 * the word in `chars`), so a lookup reads one entry and one run of characters, both contiguous, and no string
 * object: over a large vocabulary the lookups miss the cache, and each dependent pointer was another miss.
 */
let table = new Int32Array(4 * 2048);
let chars = new Uint16Array(16384);
let charsUsed = 0;
let epoch = 0;

/** Changes whenever ids are reassigned; caches keyed by id must be dropped when it does. */
export function internEpoch(): number {
  return epoch;
}

/** Number of ids handed out in this epoch (ids are 0 … internCount() − 1). */
export function internCount(): number {
  return internWords.length;
}

/** The words by id of the current epoch (an older epoch's array stays valid for tokens made in it). */
export function internDict(): readonly string[] {
  return internWords;
}

/** Starts a new epoch when the table is full; called before tokenizing, never while ids are being handed out. */
export function resetIfFull(): void {
  if (internWords.length <= INTERN_LIMIT) return;
  internWords = [];
  table = new Int32Array(4 * 2048);
  chars = new Uint16Array(16384);
  charsUsed = 0;
  epoch++;
}

const slotOf = (h: number) => Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;

function place(t: Int32Array, h: number, id1: number, off: number, len: number): void {
  const mask = (t.length >>> 2) - 1;
  let e = slotOf(h) & mask;
  while (t[4 * e + 1] !== 0) e = (e + 1) & mask;
  t[4 * e] = h;
  t[4 * e + 1] = id1;
  t[4 * e + 2] = off;
  t[4 * e + 3] = len;
}

function addWord(word: string, h: number): number {
  const id = internWords.length;
  internWords.push(word);
  const len = word.length;
  if (charsUsed + len > chars.length) {
    const bigger = new Uint16Array(Math.max(2 * chars.length, charsUsed + len));
    bigger.set(chars);
    chars = bigger;
  }
  const off = charsUsed;
  for (let j = 0; j < len; j++) chars[off + j] = word.charCodeAt(j);
  charsUsed += len;
  if (4 * 2 * (id + 1) > table.length) {
    // Rehash into a table twice the size.
    const old = table;
    table = new Int32Array(2 * old.length);
    for (let e = 0; e < old.length; e += 4)
      if (old[e + 1] !== 0) place(table, old[e]!, old[e + 1]!, old[e + 2]!, old[e + 3]!);
  }
  place(table, h, id + 1, off, len);
  return id;
}

/** Id of a word given as a string. */
export function internString(word: string): number {
  let h = FNV_OFFSET;
  const len = word.length;
  for (let j = 0; j < len; j++) h = Math.imul(h ^ word.charCodeAt(j), FNV_PRIME);
  const mask = (table.length >>> 2) - 1;
  for (let e = slotOf(h) & mask; ; e = (e + 1) & mask) {
    const id1 = table[4 * e + 1]!;
    if (id1 === 0) return addWord(word, h);
    if (table[4 * e] === h && table[4 * e + 3] === len) {
      const off = table[4 * e + 2]!;
      let j = 0;
      while (j < len && chars[off + j] === word.charCodeAt(j)) j++;
      if (j === len) return id1 - 1;
    }
  }
}

/** Id of the ASCII letters text[a, b) lowercased, `h` their FNV hash (lowercased): no string unless the word is new. */
export function internAsciiRun(text: string, a: number, b: number, h: number): number {
  const mask = (table.length >>> 2) - 1;
  const len = b - a;
  for (let e = slotOf(h) & mask; ; e = (e + 1) & mask) {
    const id1 = table[4 * e + 1]!;
    if (id1 === 0) {
      // Built from character codes, not sliced: a slice of a long word would keep the whole input alive in the table.
      let word = '';
      for (let j = a; j < b; j++) word += String.fromCharCode(text.charCodeAt(j) | 0x20);
      return addWord(word, h);
    }
    if (table[4 * e] === h && table[4 * e + 3] === len) {
      const off = table[4 * e + 2]!;
      let j = 0;
      while (j < len && chars[off + j] === (text.charCodeAt(a + j) | 0x20)) j++;
      if (j === len) return id1 - 1;
    }
  }
}
