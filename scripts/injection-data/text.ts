// Small text helpers shared by the sources: HTML to text, paragraph windows, normalisation for de-duplication.
import { decodeHTML } from 'entities';

/** Visible-ish text of an HTML document: drops script/style/comments/tags, decodes entities, collapses blanks. */
export function htmlToText(html: string): string {
  const stripped = html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|noscript|template|svg)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6]|tr|section|article|header|footer|blockquote|pre)\s*>/gi, '\n')
    .replace(/<[^>]+>/g, ' ');
  return tidy(decodeHTML(stripped));
}

/** Collapses runs of spaces and of blank lines; trims. */
export function tidy(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Cuts a long text into windows of whole paragraphs of at most `max` characters (a paragraph longer than that is cut
 * at the limit). Windows shorter than `min` are dropped.
 */
export function paragraphWindows(text: string, max = 1200, min = 80): string[] {
  const out: string[] = [];
  let current = '';
  for (const para of text.split(/\n\s*\n/)) {
    const p = para.trim();
    if (!p) continue;
    if (current && current.length + p.length + 2 > max) {
      out.push(current);
      current = '';
    }
    current = current ? `${current}\n\n${p}` : p;
    while (current.length > max) {
      out.push(current.slice(0, max));
      current = current.slice(max);
    }
  }
  if (current) out.push(current);
  return out.filter((w) => w.trim().length >= min);
}

/** Key for de-duplication: case, blanks and punctuation runs do not make two records different. */
export function dedupKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]+/gu, ' ')
    .trim();
}

/** Cuts raw HTML at a tag boundary so huge pages stay usable as single records. */
export function capHtml(html: string, max = 40_000): string {
  if (html.length <= max) return html;
  const cut = html.lastIndexOf('<', max);
  return html.slice(0, cut > max / 2 ? cut : max);
}
