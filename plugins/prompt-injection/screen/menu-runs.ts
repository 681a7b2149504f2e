// Breadcrumbs and menus written out as text ("Droit > Pénal > Enquête > Instruction > …", or one "> Item" per line):
// runs of short items after separators. The learned scorer reads them as one long "sentence" of topic words, and a
// run of legal or technical headings can look like orders to it; a run holds no order of its own, so it is blanked
// for the scorer.

/** Separators of a breadcrumb or a menu: `>`, `»`, `›` (inline with a space on each side, or opening a line). */
const isSeparator = (c: number) => c === 0x3e || c === 0xbb || c === 0x203a;
/** Longest item between two separators. */
const MAX_ITEM = 60;
/** Separators a run needs. */
const MIN_SEPARATORS = 4;

/** Whether code `c` ends a sentence or a line: an item holds none. */
const breaksItem = (c: number) => c === 0x0a || c === 0x2e || c === 0x21 || c === 0x3f;

/** A separator with a space on each side; found by the regular-expression engine, which skips prose far faster than
 * a loop over its characters. */
const SEPARATOR_RE = / [>\u00bb\u203a] /g;

/** Whether text[from, to) holds a sentence end, a newline, a comma or a semicolon: items of a breadcrumb are bare
 * headings ("x > 3 and y > 4, the loop stops; a > b …" is prose). */
function breaksIn(text: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if (breaksItem(c) || c === 0x2c || c === 0x3b) return true;
  }
  return false;
}

/**
 * Character ranges [start, end) of the menu runs of `text`: at least MIN_SEPARATORS separators in a row, each item
 * between them at most MAX_ITEM characters without a sentence end or a newline. Reads only the items around each
 * separator found.
 */
export function menuRuns(text: string): [number, number][] {
  const runs: [number, number][] = [];
  let count = 0;
  let runStart = -1;
  let lastSep = -1;
  const close = () => {
    if (count >= MIN_SEPARATORS) runs.push([runStart, itemEnd(text, lastSep + 2)]);
    count = 0;
  };
  SEPARATOR_RE.lastIndex = 0;
  for (let m = SEPARATOR_RE.exec(text); m !== null; m = SEPARATOR_RE.exec(text)) {
    const sep = m.index + 1;
    // Chained to the previous separator when the item between them is short and whole.
    if (count > 0 && (sep - lastSep > MAX_ITEM || breaksIn(text, lastSep + 2, sep))) close();
    if (count === 0) runStart = itemStart(text, sep - 1);
    count++;
    lastSep = sep;
    SEPARATOR_RE.lastIndex = sep + 1;
  }
  if (count > 0) close();
  return runs;
}

/** Start of the item that ends at `end` (exclusive): back to a sentence end or a newline, MAX_ITEM at most. */
function itemStart(text: string, end: number): number {
  let k = end;
  while (k > 0 && end - k < MAX_ITEM && !breaksItem(text.charCodeAt(k - 1))) k--;
  return k;
}

/** End of the item that starts at `start`: up to a sentence end or a newline, MAX_ITEM at most. */
function itemEnd(text: string, start: number): number {
  let k = start;
  while (k < text.length && k - start < MAX_ITEM && !breaksItem(text.charCodeAt(k))) k++;
  return k;
}

/** Lines a one-item-per-line menu needs, and the longest item of such a line. */
const MIN_MENU_LINES = 6;
const MAX_LINE_ITEM = 40;

/** Character ranges of the menus written one item per line ("> Enquête"): at least MIN_MENU_LINES in a row (blank
 * lines aside), each a separator, a space and at most MAX_LINE_ITEM characters without a sentence end. An e-mail's
 * quoted reply ("> …") has longer lines and sentences. */
export function menuLineRuns(text: string): [number, number][] {
  const runs: [number, number][] = [];
  let lines = 0;
  let runStart = -1;
  let runEnd = -1;
  const close = () => {
    if (lines >= MIN_MENU_LINES) runs.push([runStart, runEnd]);
    lines = 0;
    runStart = -1;
  };
  let i = 0;
  while (i < text.length) {
    let end = text.indexOf('\n', i);
    if (end < 0) end = text.length;
    if (end > i) {
      const item = end - i - 2;
      let menuLine =
        isSeparator(text.charCodeAt(i)) && text.charCodeAt(i + 1) === 0x20 && item > 0 && item <= MAX_LINE_ITEM;
      for (let k = i + 2; menuLine && k < end; k++) if (breaksItem(text.charCodeAt(k))) menuLine = false;
      if (menuLine) {
        if (lines === 0) runStart = i;
        lines++;
        runEnd = end;
      } else if (!blankLine(text, i, end)) close();
    }
    i = end + 1;
  }
  close();
  return runs;
}

function blankLine(text: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}
