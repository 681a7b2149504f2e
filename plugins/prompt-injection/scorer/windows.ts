/**
 * Windows for the learned scorer. An injection is usually one or two sentences inside a longer benign document, and
 * a linear model scored over the whole document would drown it in ordinary text. So a segment is cut into units
 * (lines and sentences; a unit longer than MAX_WINDOW is cut at a space), and the scorer looks at every unit alone
 * and at the longest run of consecutive units starting at each unit that fits in MAX_WINDOW characters. The screen
 * takes the best window; its span is the finding's marker. The number of windows is at most twice the number of
 * units, so the work stays linear in the text.
 */

export const MAX_WINDOW = 400;
/** Shorter single units ("OK.", "Menu") say too little to be scored alone; they still count inside runs. */
export const MIN_UNIT = 24;

/**
 * Does the unit text[a, b) say enough to be scored alone? Length counts a Han, kana or Hangul character (or a
 * full-width form) as three: "忘掉你到目前为止收到的一切指示。" is 16 characters but says as much as a 50-character
 * English sentence, and a unit too short to score alone is only read inside runs with the text around it, where a
 * short injection drowns. Reads at most MIN_UNIT characters.
 */
export function scoresAlone(text: string, a: number, b: number): boolean {
  if (b - a >= MIN_UNIT) return true;
  let weight = 0;
  for (let i = a; i < b; i++) {
    const c = text.charCodeAt(i);
    weight +=
      (c >= 0x2e80 && c <= 0x9fff) ||
      (c >= 0xac00 && c <= 0xd7af) ||
      (c >= 0xf900 && c <= 0xfaff) ||
      (c >= 0xff00 && c <= 0xffef)
        ? 3
        : 1;
  }
  return weight >= MIN_UNIT;
}

export interface Span {
  start: number;
  end: number;
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;

/** Lines and sentences of `text`, trimmed, in order, none longer than MAX_WINDOW. */
export function units(text: string): Span[] {
  const u = unitSpans(text);
  const out: Span[] = [];
  for (let i = 0; i < u.count; i++) out.push({ start: u.start[i]!, end: u.end[i]! });
  return out;
}

/** Units as two parallel arrays (valid up to `count`), for the scorer: no object per sentence. */
export interface UnitSpans {
  count: number;
  start: Int32Array;
  end: Int32Array;
}

/**
 * How the character c at i separates units: 1 for a line break (the unit ends before it), 2 for 。！？ and for . ! ? ;
 * followed by white space or the end (the unit ends after it), 0 for anything else.
 */
export function separatorAt(text: string, i: number, c: number): number {
  if (c === 0x0a) return 1;
  // 。！？ end a Chinese or Japanese sentence without a following space.
  if (c === 0x3002 || c === 0xff01 || c === 0xff1f) return 2;
  if (
    (c === 0x2e || c === 0x21 || c === 0x3f || c === 0x3b) &&
    (i + 1 >= text.length || isSpace(text.charCodeAt(i + 1)))
  )
    return 2;
  return 0;
}

/**
 * Builds the units of one text from its separators, given in text order (`separator(i, kind)`), then `finish()`:
 * each stretch between separators is trimmed and cut at a space when longer than MAX_WINDOW.
 */
export class UnitCollector {
  private count = 0;
  private starts: Int32Array;
  private ends: Int32Array;
  private from = 0;
  private readonly out: UnitSpans;

  constructor(
    private readonly text: string,
    into?: UnitSpans,
  ) {
    const n = text.length;
    // Units are disjoint and not empty, so there are at most n; sized for a sentence per 16 characters, then doubled.
    const want = Math.min(n + 1, (n >>> 4) + 16);
    this.out =
      into && into.start.length >= want ? into : { count: 0, start: new Int32Array(want), end: new Int32Array(want) };
    this.starts = this.out.start;
    this.ends = this.out.end;
  }

  separator(i: number, kind: number): void {
    if (kind === 1) {
      this.push(this.from, i);
      this.from = i + 1;
    } else {
      this.push(this.from, i + 1);
      this.from = i + 1;
    }
  }

  finish(): UnitSpans {
    this.push(this.from, this.text.length);
    this.out.count = this.count;
    this.out.start = this.starts;
    this.out.end = this.ends;
    return this.out;
  }

  private add(a: number, b: number): void {
    if (this.count === this.starts.length) {
      const s2 = new Int32Array(2 * this.count);
      s2.set(this.starts);
      this.starts = s2;
      const e2 = new Int32Array(2 * this.count);
      e2.set(this.ends);
      this.ends = e2;
    }
    this.starts[this.count] = a;
    this.ends[this.count++] = b;
  }

  private push(a: number, b: number): void {
    const text = this.text;
    while (a < b && isSpace(text.charCodeAt(a))) a++;
    while (b > a && isSpace(text.charCodeAt(b - 1))) b--;
    while (b - a > MAX_WINDOW) {
      let cut = a + MAX_WINDOW;
      while (cut > a + MAX_WINDOW / 2 && !isSpace(text.charCodeAt(cut))) cut--;
      if (cut <= a + MAX_WINDOW / 2) cut = a + MAX_WINDOW;
      let e = cut;
      while (e > a && isSpace(text.charCodeAt(e - 1))) e--;
      this.add(a, e);
      a = cut;
      while (a < b && isSpace(text.charCodeAt(a))) a++;
    }
    if (b > a) this.add(a, b);
  }
}

/** The units of `text` (see units()), written into `into` when given and large enough. */
export function unitSpans(text: string, into?: UnitSpans): UnitSpans {
  const units = new UnitCollector(text, into);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // Most characters end nothing: one range test skips them (every separator is 0x0a–0x3f or ≥ 0x3002).
    if (c > 0x3f && c < 0x3002) continue;
    const kind = separatorAt(text, i, c);
    if (kind !== 0) units.separator(i, kind);
  }
  return units.finish();
}

/**
 * The windows of a list of units of `text`: each unit that scoresAlone(), and from each unit the longest run of
 * units that fits in MAX_WINDOW characters (when longer than the unit itself). Calls `visit(i, j)` with the first
 * and last unit of each window.
 */
export function forEachWindow(text: string, us: readonly Span[], visit: (first: number, last: number) => void): void {
  let j = 0;
  for (let i = 0; i < us.length; i++) {
    if (j < i) j = i;
    while (j + 1 < us.length && us[j + 1]!.end - us[i]!.start <= MAX_WINDOW) j++;
    if (scoresAlone(text, us[i]!.start, us[i]!.end) || j === i) visit(i, i);
    if (j > i) visit(i, j);
  }
}
