/**
 * Visible-ish text of an HTML document in one linear pass: tags dropped, script/style/noscript/template bodies
 * skipped, whitespace folded, at most `maxChars` of input read. No regex runs over the input, so hostile markup
 * (thousands of unclosed `<`) costs the same as its length.
 *
 * Not built on tokenizeHtml (html-tokenizer.ts) on purpose, for now: here any `<` opens a tag that runs to the first
 * `>` (no quotes, no comment syntax: `a < b > c` loses ` b `, `< script>` is a script), so text made from the
 * tokenizer differs on 3,124 of the 24,850 injection-corpus records with a `<` (issue 13); moving it is a behaviour
 * change to make on purpose.
 */
import { asciiLowerCase } from './normalise.ts';
export function htmlToText(html: string, maxChars = 200_000): string {
  const src = html.length > maxChars ? html.slice(0, maxChars) : html;
  const lower = asciiLowerCase(src);
  let out = '';
  let i = 0;
  while (i < src.length) {
    const lt = src.indexOf('<', i);
    if (lt === -1) {
      out += src.slice(i);
      break;
    }
    out += `${src.slice(i, lt)} `;
    const gt = src.indexOf('>', lt + 1);
    if (gt === -1) break; // an unclosed tag runs to the end: nothing after it is text
    const name = /^<\s*([a-z0-9]+)/.exec(lower.slice(lt, Math.min(gt + 1, lt + 32)))?.[1];
    i = gt + 1;
    if (name === 'script' || name === 'style' || name === 'noscript' || name === 'template') {
      const close = lower.indexOf(`</${name}`, i);
      if (close === -1) break;
      const end = src.indexOf('>', close);
      i = end === -1 ? src.length : end + 1;
    }
  }
  return out.replace(/\s+/g, ' ').trim();
}
