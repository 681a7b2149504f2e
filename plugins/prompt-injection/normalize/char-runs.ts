// Runs of characters from a small ASCII alphabet (base64, hex, byte-code lists), found without reading every
// character: every run of `minRun` or more that starts in [i, i + minRun) covers i + minRun − 1, so where that
// character is outside the alphabet the whole window is skipped. Prose is read a few characters per word.

/** Calls `visit(from, to)` for each maximal run [from, to) of at least `minRun` characters whose codes are marked in
 * `alphabet` (indexed by ASCII code); stops when `visit` returns false. */
export function forEachRun(
  text: string,
  alphabet: Uint8Array,
  minRun: number,
  visit: (from: number, to: number) => boolean,
): void {
  const n = text.length;
  const inAlphabet = (k: number) => {
    const c = text.charCodeAt(k);
    return c < 128 && alphabet[c] === 1;
  };
  for (let i = 0; i + minRun <= n; ) {
    const last = i + minRun - 1;
    if (!inAlphabet(last)) {
      i = last + 1;
      continue;
    }
    let from = last;
    while (from > i && inAlphabet(from - 1)) from--;
    let to = last + 1;
    while (to < n && inAlphabet(to)) to++;
    i = to + 1;
    if (to - from >= minRun && !visit(from, to)) return;
  }
}
