/**
 * Characters that render as nothing (or as a blank) but make two strings differ: format characters (zero-width
 * space/joiners, bidi controls, word joiner, BOM, soft hyphen, Unicode tag characters U+E0000–E007F), controls
 * other than tab and line breaks, variation selectors, combining grapheme joiner and the Hangul and Mongolian
 * fillers. Removed before comparing names and before redacting, so `wire\u200bmoney` is `wiremoney`.
 */
const INVISIBLE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: code points deleted one at a time, never a grapheme
  /[\p{Cf}\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u3164\uFE00-\uFE0F\uFFA0\u{E0100}-\u{E01EF}]/gu;

export function stripInvisible(text: string): string {
  return text.replace(INVISIBLE, '');
}

/**
 * The form a tool, connector or list-entry name is compared in: NFKC (full-width `ｗ` is `w`, ligatures split),
 * invisible characters removed, whitespace runs folded to one space and trimmed, then case-folded. The same
 * function runs on the workspace's list entries and on the names in calls, so no spelling slips between them.
 */
export function normaliseName(name: string): string {
  return stripInvisible(name.normalize('NFKC')).replace(/\s+/gu, ' ').trim().toLowerCase();
}

/**
 * Lower-cases A-Z only, so every index of the result is the same index of the input. `String#toLowerCase` changes
 * lengths ("İ" becomes two code units), so positions found in its copy drift in the original: a page with enough
 * `İ` before a `<script>` would have its text cut in the wrong places.
 */
export function asciiLowerCase(text: string): string {
  return text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
}
