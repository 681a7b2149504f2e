// A linear HTML scanner (not a parser): the visible text of a page and, apart from it, the text a reader would not
// see (CSS-hidden, off-screen, zero-size, comments, templates, whatever follows a script or style that never ends).
// No character is read twice, except once more after a raw-text element whose end tag the search did not find (once
// per element name: the search is not repeated). The tag reader (html-tag.ts), the style reader (html-css.ts), the
// visibility frames (html-frames.ts) and attribute prose (html-attribute-text.ts) are its parts; this module is the
// pass over the document.
// It does not read through core's tokenizeHtml (the plugin API's bounded tokenizer) yet: its tag reader takes any
// name up to a space (`<o:p>`), honours quotes only in attribute values, reads tags of any length and, when a quote
// never closes, keeps the rest as text; the core tokenizer differs on each, so the screen's output would move.

import { decodeHTML } from 'entities';
import type { Meter } from '../matcher.ts';
import { isAsciiLetter } from './hidden-characters.ts';
import { attributeText, strayTagText } from './html-attribute-text.ts';
import { type Frame, frameFor, hiddenReason } from './html-frames.ts';
import { isSpace, type ParsedTag, readTag } from './html-tag.ts';

const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/** Elements whose content is never rendered as text. */
const SKIPPED_RAW = new Set(['script', 'style']);
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'noembed', 'noframes']);

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];

const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  ...HEADINGS,
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tr',
  'ul',
  'title',
  'body',
  'head',
  'html',
  'option',
  'button',
  'label',
]);

/**
 * Elements whose text is a page's furniture (links, headings, buttons, menus, captions), not its prose. A line made
 * of such text is a menu entry or a teaser for another page: a question or an imperative there is a headline.
 */
const CHROME = new Set([
  'a',
  'button',
  'caption',
  'dt',
  'figcaption',
  ...HEADINGS,
  'label',
  'legend',
  'nav',
  'option',
  'summary',
  'th',
  'title',
]);

/** Share of a line's characters inside CHROME elements from which the whole line counts as furniture. */
const CHROME_SHARE = 0.75;

/** The `via` of text read from an HTML comment (pages and plain text alike); the structure rules read it. */
export const HTML_COMMENT = 'html comment';

/**
 * How the `via` of text after a script or style that never closes begins. A browser hides it, but mostly by accident
 * (a page cut short, a Markdown page naming the tag), so its weak phrases are not doubled as hidden text's are.
 */
export const AFTER_UNCLOSED = 'after an unclosed <';

/** A document that opens as HTML: `<!doctype html` or `<html` after leading white space, in any case. */
const OPENS_AS_HTML = /^\s{0,64}<(?:!doctype\s+html|html[\s>])/i;

/**
 * Quick test used to decide between the HTML scanner and plain-text folding. A document that opens as HTML is HTML
 * however long its first run of unclosed tags; otherwise four tags and a closing one within the first 200,000
 * characters make it HTML, and failing that one tag among the first that hides its own text (`hasHidingTag`, read
 * last so that real pages never pay for its tag reads).
 */
export function looksLikeHtml(text: string): boolean {
  if (OPENS_AS_HTML.test(text)) return true;
  let tags = 0;
  let closing = 0;
  const limit = Math.min(text.length, 200_000);
  // indexOf jumps from one '<' to the next natively (the same positions the character loop visited).
  for (let i = text.indexOf('<'); i >= 0 && i < limit - 1; i = text.indexOf('<', i + 1)) {
    const n = text.charCodeAt(i + 1);
    if (n === 0x2f) closing++;
    if (n === 0x2f || n === 0x21 || isAsciiLetter(n)) tags++;
    if (tags >= 4 && closing >= 1) return true;
  }
  return hasHidingTag(text);
}

/** A page's own frame: visible black text on white, nothing hidden. */
function pageFrame(): Frame {
  return {
    name: '#root',
    hard: false,
    invisible: false,
    fontZero: false,
    color: { r: 0, g: 0, b: 0 },
    background: { r: 255, g: 255, b: 255 },
    why: '',
  };
}

/** Tags read by `hasHidingTag`: a planted element stands among the first few of a mail or a note. */
const HIDING_TAG_SCAN = 64;

/**
 * Whether one of the first tags hides its own text (`<span style="color:white">`, `<div hidden>`,
 * `style="display:none"`): a mail or a note with a single such element is HTML enough for the scanner, since hiding
 * is that element's only effect. Each character is read at most once (a tag read resumes where the last stopped).
 */
function hasHidingTag(text: string): boolean {
  const page = pageFrame();
  let tags = 0;
  for (let i = text.indexOf('<'); i >= 0 && tags < HIDING_TAG_SCAN; ) {
    if (!isAsciiLetter(text.charCodeAt(i + 1))) {
      i = text.indexOf('<', i + 1);
      continue;
    }
    tags++;
    const tag = readTag(text, i);
    if ('scanned' in tag) {
      i = text.indexOf('<', Math.max(tag.scanned, i + 1));
      continue;
    }
    if (hiddenReason(frameFor(tag, page))) return true;
    i = text.indexOf('<', tag.end);
  }
  return false;
}

interface HtmlText {
  visible: string;
  hidden: { text: string; via: string }[];
  /** Lines of `visible` (raw, not folded) that are mostly text of CHROME elements. */
  chrome: string[];
}

/**
 * A linear scanner, not a parser: it keeps a stack of open elements with the inherited properties that decide
 * visibility. End tags pop to the nearest open element of that name (amortised O(1): each push is popped once);
 * an end tag with no open element of that name is ignored, which the per-name counts tell in O(1).
 */
export function extractHtml(html: string, meter?: Meter): HtmlText {
  const root = pageFrame();
  const stack: Frame[] = [root];
  const openCount = new Map<string, number>();
  let visible = '';
  const hidden: { text: string; via: string }[] = [];
  let hiddenBuf = '';
  let hiddenVia = '';
  const chromeSpans: number[] = [];
  let chromeDepth = 0;
  // The visible line being written: where it starts, its characters, and how many of them are CHROME text.
  let lineStart = 0;
  let lineChars = 0;
  let lineChromeChars = 0;
  const flushHidden = () => {
    if (hiddenBuf.trim().length > 0) hidden.push({ text: hiddenBuf, via: hiddenVia });
    hiddenBuf = '';
  };
  // Set once a script or style never ends: a browser shows nothing after it, a model reading the markup reads on.
  let afterUnclosed: string | undefined;
  const emit = (raw: string) => {
    const text = afterUnclosed === undefined ? raw : proseLines(raw);
    if (text.length === 0) return;
    const why = afterUnclosed ?? hiddenReason(stack[stack.length - 1]!);
    if (why === undefined) {
      visible += text;
      const chars = text.trim().length;
      lineChars += chars;
      if (chromeDepth > 0) lineChromeChars += chars;
    } else {
      if (hiddenVia !== why) flushHidden();
      hiddenVia = why;
      hiddenBuf += text;
    }
  };
  const endLine = () => {
    // Offsets only: slicing `visible` while it grows would flatten it again at every furniture line.
    if (lineChars > 0 && lineChromeChars >= CHROME_SHARE * lineChars) chromeSpans.push(lineStart, visible.length);
    lineChars = 0;
    lineChromeChars = 0;
  };
  const boundary = (name: string) => {
    if (BLOCK.has(name)) {
      endLine();
      visible += '\n';
      lineStart = visible.length;
      hiddenBuf += '\n';
    } else if (name === 'td' || name === 'th') {
      visible += ' ';
      hiddenBuf += ' ';
    }
  };
  const push = (f: Frame) => {
    stack.push(f);
    openCount.set(f.name, (openCount.get(f.name) ?? 0) + 1);
    if (CHROME.has(f.name)) chromeDepth++;
  };
  const pop = () => {
    if (meter) meter.steps++;
    const f = stack.pop()!;
    openCount.set(f.name, (openCount.get(f.name) ?? 1) - 1);
    if (CHROME.has(f.name)) chromeDepth--;
    boundary(f.name);
    const top = stack[stack.length - 1]!;
    if (hiddenReason(top) === undefined) flushHidden();
  };
  let i = 0;
  let textStart = 0;
  const n = html.length;
  // Raw-text elements with no end tag after some point: a later search for the same end tag would find none either,
  // and repeating it for every such start tag would read the rest of the input again each time.
  const neverClosed = new Set<string>();
  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt < 0) break;
    if (meter) meter.steps += 1 + (lt - i);
    if (html.startsWith('<!--', lt)) {
      emit(html.slice(textStart, lt));
      const end = html.indexOf('-->', lt + 4);
      const body = html.slice(lt + 4, end < 0 ? n : end);
      // Conditional comments are browser plumbing, not prose.
      if (afterUnclosed !== undefined) emit(body);
      else if (!body.startsWith('[if') && !body.startsWith('<![endif')) {
        flushHidden();
        hidden.push({ text: body, via: HTML_COMMENT });
      }
      i = end < 0 ? n : end + 3;
      textStart = i;
      continue;
    }
    if (html.charCodeAt(lt + 1) === 0x21 || html.charCodeAt(lt + 1) === 0x3f) {
      // Doctype, CDATA or processing instruction.
      emit(html.slice(textStart, lt));
      const end = html.indexOf('>', lt + 2);
      i = end < 0 ? n : end + 1;
      textStart = i;
      continue;
    }
    if (afterUnclosed !== undefined) {
      // Past a script that never ends, "<" is mostly the script's own ("i<arguments.length"): read as a tag it would
      // swallow everything to the next ">", a comment planted after the code included.
      const named = plainTagNameEnd(html, lt);
      if (meter) meter.steps += Math.abs(named) - lt;
      if (named < 0) {
        i = lt + 1;
        continue;
      }
    }
    const tag = readTag(html, lt);
    if (meter) meter.steps += ('name' in tag ? tag.end : tag.scanned) - lt;
    if (!('name' in tag)) {
      i = Math.max(lt + 1, tag.scanned);
      continue;
    }
    // "adds an extra inline `<script>` tag": a tag written as Markdown inline code is named, not opened. Its text
    // stays where it is (a browser shows the backticks and would still hide the text, so the screen reads it as
    // visible, never as dropped).
    if (lt > 0 && html.charCodeAt(lt - 1) === 0x60 && html.charCodeAt(tag.end) === 0x60) {
      i = tag.end;
      continue;
    }
    emit(html.slice(textStart, lt));
    i = tag.end;
    textStart = i;
    if (tag.closing) {
      if ((openCount.get(tag.name) ?? 0) > 0) {
        while (stack.length > 1) {
          const name = stack[stack.length - 1]!.name;
          pop();
          if (name === tag.name) break;
        }
      } else {
        boundary(tag.name);
      }
      continue;
    }
    if (RAW_TEXT.has(tag.name) && !tag.selfClosing) {
      // Raw text runs to the matching end tag; scripts and styles are dropped, the rest is text.
      const closeAt = neverClosed.has(tag.name) ? -1 : findEndTag(html, tag.name, i);
      if (closeAt < 0) neverClosed.add(tag.name);
      if (closeAt < 0 && SKIPPED_RAW.has(tag.name)) {
        // Dropping the rest of the input would let one stray "<script>" (a page cut short, a Markdown doc naming
        // the tag, text planted after a dangling <style>) hide everything after it from the screen.
        afterUnclosed ??= `${AFTER_UNCLOSED}${tag.name}>`;
        continue;
      }
      const body = html.slice(i, closeAt < 0 ? n : closeAt);
      if (!SKIPPED_RAW.has(tag.name)) {
        push(frameFor(tag, stack[stack.length - 1]!));
        emit(body);
        pop();
      } else if (tag.name === 'style' || isMarkupScript(tag)) {
        const planted = markupText(body);
        if (planted) {
          flushHidden();
          hidden.push({ text: planted, via: `markup inside <${tag.name}>` });
        }
      }
      const gt = closeAt < 0 ? -1 : html.indexOf('>', closeAt);
      i = gt < 0 ? n : gt + 1;
      textStart = i;
      continue;
    }
    const attributeProse = attributeText(tag);
    if (attributeProse) {
      flushHidden();
      hidden.push(attributeProse);
    }
    const stray = strayTagText(tag);
    if (stray) {
      flushHidden();
      hidden.push(stray);
    }
    if (VOID_ELEMENTS.has(tag.name) || tag.selfClosing) {
      boundary(tag.name);
      continue;
    }
    boundary(tag.name);
    push(frameFor(tag, stack[stack.length - 1]!));
  }
  if (textStart < n) emit(html.slice(textStart));
  flushHidden();
  endLine();
  const chrome: string[] = [];
  for (let k = 0; k < chromeSpans.length; k += 2) chrome.push(visible.slice(chromeSpans[k], chromeSpans[k + 1]));
  return { visible, hidden, chrome };
}

/**
 * Where the name of a tag opening at `<` ends, if it is a plain tag name (a letter, then letters, digits, '-', '_' or
 * ':' up to white space, '/', '>' or the end), or minus where the first other character stands. Reads each character
 * of the name once, stopping at the first that does not belong.
 */
function plainTagNameEnd(html: string, lt: number): number {
  let i = lt + 1;
  if (html.charCodeAt(i) === 0x2f) i++;
  if (!isAsciiLetter(html.charCodeAt(i))) return -i;
  for (i++; i < html.length; i++) {
    const c = html.charCodeAt(i);
    if (isSpace(c) || c === 0x2f || c === 0x3e) return i;
    const plain = isAsciiLetter(c) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f || c === 0x3a;
    if (!plain) return -i;
  }
  return i;
}

/**
 * The lines of a stretch after an unclosed script or style that are not CSS or script: a declaration, rule, block or
 * statement has a brace, an assignment, or a semicolon that ends the line or is glued to what follows (`a:b;c:d`),
 * where prose puts a space after its semicolons. Entities are read first (`&lt;system&gt;` has no semicolon).
 */
function proseLines(text: string): string {
  let out = '';
  for (const line of text.split('\n')) if (!CODE_LINE.test(decodeHTML(line))) out += `${line}\n`;
  return out.trim().length > 0 ? out : '';
}

/**
 * Text elements written inside a stylesheet or a markup script (`<p>…</p>` in CSS, an HTML template in
 * `<script type="text/template">`): a browser never shows them, a model reading the markup reads them. Each text run
 * of 20 characters or more after a text element's opening tag, entities decoded. The pattern cannot backtrack past
 * the next '<' or '>', so the scan is linear. JavaScript is left alone: its HTML strings and server-rendered state
 * repeat the page's own text.
 */
function markupText(body: string): string {
  let out = '';
  for (const m of body.matchAll(MARKUP_TEXT)) out += `${decodeHTML(m[1]!)}\n`;
  return out;
}

// An assignment is a lone '=' ('a = 1', 'a += 1'); a run of them ("=== END OF EMAIL ===") is a banner of prose.
const CODE_LINE = /[{}]|(?<!=)=(?!=)|;(?! )/;

/** A script whose body is markup for later (`text/template`, `text/x-template`, `text/html`, `text/ng-template`). */
function isMarkupScript(tag: ParsedTag): boolean {
  const type = tag.attrs.get('type')?.toLowerCase() ?? '';
  return type.includes('template') || type.includes('html');
}

const MARKUP_TEXT = /<(?:p|div|span|li|h[1-6]|td|a|b|strong|em|section|article|blockquote)\b[^<>]*>([^<]{20,})/gi;

/** First `</name` at or after `from`, any letter case. One pass over the characters it passes. */
function findEndTag(html: string, name: string, from: number): number {
  let i = html.indexOf('</', from);
  while (i >= 0) {
    if (html.slice(i + 2, i + 2 + name.length).toLowerCase() === name) return i;
    i = html.indexOf('</', i + 2);
  }
  return -1;
}
