/**
 * Tool outputs reach agents as JSON: an issue, a calendar event, a search result, with the planted text inside a
 * string value whose line breaks are the two characters `\n`. Read raw, a whole value is one unbroken "sentence" of
 * escapes, and a planted line never stands on a line of its own. Decoding the escapes in place gives the lines back
 * and keeps the JSON around them (the quotes and keys that tell a field of data from a line of prose).
 *
 * Not JSON.parse and a walk over the values: a value's lines would then stand alone like a page's, and a question a
 * user typed into a chat message or an event description would read as a task planted in a document.
 */

/**
 * `"key": "` — the text quotes JSON (a whole payload, a log line, a payload cut short) — or `'key': '`, a Python
 * dict as agent frameworks print tool results, with the same escapes and `\'`.
 */
const QUOTED_JSON = /"[^"\\\n]{1,64}"[ \t]{0,4}:[ \t]{0,4}"|'[^'\\\n]{1,64}'[ \t]{0,4}:[ \t]{0,4}'/;
const ESCAPE = /\\(?:u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|(["'\\/bfnrt]))/g;
const SIMPLE: Record<string, string> = {
  '"': '"',
  "'": "'",
  '\\': '\\',
  '/': '/',
  b: '',
  f: ' ',
  n: '\n',
  r: '',
  t: ' ',
};

/** Decodes string escapes when the text holds quoted JSON or a printed dict; otherwise returns it unchanged. */
export function decodeQuotedJson(text: string): string {
  if (text.indexOf('\\') < 0 || !QUOTED_JSON.test(text)) return text;
  return text.replace(ESCAPE, (_m, u: string | undefined, x: string | undefined, ch: string | undefined) =>
    ch === undefined ? String.fromCharCode(Number.parseInt(u ?? x!, 16)) : SIMPLE[ch]!,
  );
}
