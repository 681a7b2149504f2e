// A linear HTML scanner (not a parser): the visible text of a page and, apart from it, the text a reader would not
// see (CSS-hidden, off-screen, zero-size, comments, templates). No character is read twice.
// Over 400 lines on purpose: the tag reader, the style reader and the frame stack are one pass sharing its state
// types; cut apart, that pass would be spread over files that make sense only together.
import { decodeHTML } from 'entities';
import type { Meter } from '../matcher.ts';
import { isCjk } from '../word-chars.ts';
import { isAsciiLetter } from './hidden-characters.ts';

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
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
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

/** Quick test used to decide between the HTML scanner and plain-text folding. */
export function looksLikeHtml(text: string): boolean {
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
  return false;
}

interface Rgb {
  r: number;
  g: number;
  b: number;
}

const NAMED: Record<string, Rgb> = {
  white: { r: 255, g: 255, b: 255 },
  black: { r: 0, g: 0, b: 0 },
  snow: { r: 255, g: 250, b: 250 },
  ivory: { r: 255, g: 255, b: 240 },
  whitesmoke: { r: 245, g: 245, b: 245 },
  red: { r: 255, g: 0, b: 0 },
  green: { r: 0, g: 128, b: 0 },
  blue: { r: 0, g: 0, b: 255 },
  gray: { r: 128, g: 128, b: 128 },
  grey: { r: 128, g: 128, b: 128 },
  silver: { r: 192, g: 192, b: 192 },
  yellow: { r: 255, g: 255, b: 0 },
  navy: { r: 0, g: 0, b: 128 },
};

function parseColor(v: string): Rgb | undefined {
  const s = v.trim();
  if (s.startsWith('#')) {
    const hex = s.slice(1).split(/[^0-9a-f]/)[0] ?? '';
    if (hex.length === 3 || hex.length === 4) {
      return {
        r: Number.parseInt(hex[0]! + hex[0]!, 16),
        g: Number.parseInt(hex[1]! + hex[1]!, 16),
        b: Number.parseInt(hex[2]! + hex[2]!, 16),
      };
    }
    if (hex.length === 6 || hex.length === 8) {
      return {
        r: Number.parseInt(hex.slice(0, 2), 16),
        g: Number.parseInt(hex.slice(2, 4), 16),
        b: Number.parseInt(hex.slice(4, 6), 16),
      };
    }
    return undefined;
  }
  if (s.startsWith('rgb')) {
    const open = s.indexOf('(');
    const close = s.indexOf(')');
    if (open < 0 || close < open) return undefined;
    const parts = s
      .slice(open + 1, close)
      .split(/[\s,/]+/)
      .filter((p) => p.length > 0)
      .map((p) => Number.parseFloat(p));
    if (parts.length < 3 || parts.some((p) => Number.isNaN(p))) return undefined;
    if (parts.length >= 4 && parts[3]! <= 0.05) return undefined;
    return { r: parts[0]!, g: parts[1]!, b: parts[2]! };
  }
  return NAMED[s];
}

/** The `background` shorthand can carry an image, a position and a colour; take the first word that is a colour. */
function parseBackground(v: string): Rgb | undefined {
  const direct = parseColor(v);
  if (direct) return direct;
  for (const word of v.split(/\s+(?![^(]*\))/)) {
    const c = parseColor(word);
    if (c) return c;
  }
  return undefined;
}

function sameColour(a: Rgb, b: Rgb): boolean {
  return Math.abs(a.r - b.r) + Math.abs(a.g - b.g) + Math.abs(a.b - b.b) <= 24;
}

function cssLength(v: string): number {
  const n = Number.parseFloat(v);
  return Number.isNaN(n) ? Number.NaN : n;
}

interface Frame {
  name: string;
  /** Hidden in a way no descendant can undo (display:none, opacity:0, off-screen, clipped box). */
  hard: boolean;
  /** Inherited visibility:hidden; a descendant may set visibility:visible. */
  invisible: boolean;
  /** Inherited zero font size; a descendant may set a size again (the inline-block gap trick). */
  fontZero: boolean;
  color: Rgb;
  background: Rgb;
  why: string;
}

interface StyleEffect {
  hard?: string;
  visibility?: boolean;
  fontZero?: boolean;
  color?: Rgb;
  background?: Rgb;
}

function readStyle(style: string): StyleEffect {
  const eff: StyleEffect = {};
  const props = new Map<string, string>();
  for (const decl of style.toLowerCase().split(';')) {
    const colon = decl.indexOf(':');
    if (colon < 0) continue;
    props.set(
      decl.slice(0, colon).trim(),
      decl
        .slice(colon + 1)
        .replace('!important', '')
        .trim(),
    );
  }
  const get = (k: string) => props.get(k);
  if (get('display') === 'none') eff.hard = 'display:none';
  const op = get('opacity');
  if (op !== undefined && cssLength(op) <= 0.05) eff.hard = 'opacity:0';
  const vis = get('visibility');
  if (vis === 'hidden' || vis === 'collapse') eff.visibility = false;
  else if (vis === 'visible') eff.visibility = true;
  const fs = get('font-size');
  if (fs !== undefined) {
    const n = cssLength(fs);
    if (!Number.isNaN(n))
      eff.fontZero = n <= (fs.endsWith('px') || fs.endsWith('pt') || /^[\d.]+$/.test(fs) ? 1 : 0.05);
  }
  const color = get('color');
  if (color !== undefined) eff.color = parseColor(color);
  const bg = get('background-color') ?? get('background');
  if (bg !== undefined) eff.background = parseBackground(bg);
  const position = get('position');
  const placed = position === 'absolute' || position === 'fixed';
  for (const side of ['left', 'top', 'right', 'bottom', 'margin-left', 'margin-top']) {
    const v = get(side);
    if (v !== undefined && cssLength(v) <= -500 && (placed || side.startsWith('margin')))
      eff.hard = `${side} off-screen`;
  }
  const indent = get('text-indent');
  if (indent !== undefined && cssLength(indent) <= -500) eff.hard = 'text-indent off-screen';
  const overflowHidden = (get('overflow') ?? get('overflow-y') ?? get('overflow-x')) === 'hidden';
  const tiny = (k: string) => {
    const v = get(k);
    return v !== undefined && cssLength(v) <= 1;
  };
  if (overflowHidden && (tiny('height') || tiny('max-height') || tiny('width') || tiny('max-width'))) {
    eff.hard = 'zero-size box';
  }
  const clip = get('clip');
  if (clip !== undefined && placed && /rect\(\s*0/.test(clip)) eff.hard = 'clip:rect(0)';
  const clipPath = get('clip-path');
  if (clipPath !== undefined && /inset\(\s*50%/.test(clipPath)) eff.hard = 'clip-path';
  const transform = get('transform');
  if (transform !== undefined && /scale\(\s*0(\.0+)?\s*[,)]/.test(transform)) eff.hard = 'scale(0)';
  return eff;
}

interface ParsedTag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  attrs: Map<string, string>;
  end: number;
}

interface NotATag {
  /** How far the attempt read. The caller resumes there, so no character is read twice whatever the input. */
  scanned: number;
}

/** Reads one tag starting at `<`. Linear in the characters it reads. */
function readTag(html: string, start: number): ParsedTag | NotATag {
  let i = start + 1;
  let closing = false;
  if (html.charCodeAt(i) === 0x2f) {
    closing = true;
    i++;
  }
  if (!isAsciiLetter(html.charCodeAt(i))) return { scanned: start + 1 };
  const nameStart = i;
  while (i < html.length) {
    const c = html.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x2f || c === 0x3e) break;
    i++;
  }
  const name = html.slice(nameStart, i).toLowerCase();
  const attrs = new Map<string, string>();
  let selfClosing = false;
  while (i < html.length) {
    const c = html.charCodeAt(i);
    if (c === 0x3e) return { name, closing, selfClosing, attrs, end: i + 1 };
    if (c === 0x2f) {
      selfClosing = true;
      i++;
      continue;
    }
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) {
      i++;
      continue;
    }
    const an = i;
    while (i < html.length) {
      const d = html.charCodeAt(i);
      if (d === 0x3d || d === 0x3e || d === 0x20 || d === 0x09 || d === 0x0a || d === 0x0d || d === 0x2f) break;
      i++;
    }
    const attrName = html.slice(an, i).toLowerCase();
    if (i === an) {
      i++;
      continue;
    }
    let value = '';
    if (html.charCodeAt(i) === 0x3d) {
      i++;
      const q = html.charCodeAt(i);
      if (q === 0x22 || q === 0x27) {
        const close = html.indexOf(String.fromCharCode(q), i + 1);
        if (close < 0) return { scanned: html.length };
        value = html.slice(i + 1, close);
        i = close + 1;
      } else {
        const vs = i;
        while (i < html.length) {
          const d = html.charCodeAt(i);
          if (d === 0x3e || d === 0x20 || d === 0x09 || d === 0x0a || d === 0x0d) break;
          i++;
        }
        value = html.slice(vs, i);
      }
    }
    if (attrs.size < 64) attrs.set(attrName, value);
  }
  return { scanned: html.length };
}

/** `meta` names whose content search snippets, link previews and page-to-text tools read out. */
const META_TEXT = new Set(['description', 'og:description', 'twitter:description', 'og:title', 'twitter:title']);

/**
 * Text a page carries in attributes: nobody sees it on screen, but page-to-Markdown tools, screen readers and link
 * previews hand it to an agent (image `alt`, the meta description), which makes it a place to plant instructions.
 * Returned only when it is prose (four words or more, entities decoded, a Han or kana character counting as a word):
 * one-word alt texts are labels.
 */
function attributeText(tag: ParsedTag): { text: string; via: string } | undefined {
  let text: string | undefined;
  let via = '';
  if (tag.name === 'img' || tag.name === 'area') {
    text = tag.attrs.get('alt');
    via = `${tag.name} alt`;
  } else if (tag.name === 'meta') {
    const key = (tag.attrs.get('name') ?? tag.attrs.get('property'))?.toLowerCase();
    if (key !== undefined && META_TEXT.has(key)) {
      text = tag.attrs.get('content');
      via = `meta ${key}`;
    }
  }
  if (text === undefined || wordCount(decodeHTML(text), 4) < 4) return undefined;
  return { text, via };
}

const SPACE = /\s/;

/** Words in `text` (any Unicode space separates; each Han or kana character is a word), counting stops at `atLeast`. */
function wordCount(text: string, atLeast: number): number {
  let words = 0;
  let inWord = false;
  for (const ch of text) {
    if (words >= atLeast) break;
    if (isCjk(ch.codePointAt(0)!)) {
      words++;
      inWord = false;
      continue;
    }
    const space = SPACE.test(ch);
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}

function frameFor(tag: ParsedTag, parent: Frame): Frame {
  const f: Frame = {
    name: tag.name,
    hard: parent.hard,
    invisible: parent.invisible,
    fontZero: parent.fontZero,
    color: parent.color,
    background: parent.background,
    why: parent.why,
  };
  if (tag.name === 'template' || tag.name === 'noscript') {
    f.hard = true;
    f.why ||= `<${tag.name}>`;
  }
  if (tag.attrs.has('hidden')) {
    f.hard = true;
    f.why ||= 'hidden attribute';
  }
  const style = tag.attrs.get('style');
  if (style !== undefined && style.length > 0) {
    // Real style attributes are short; the cap keeps the per-declaration parsing bounded.
    const eff = readStyle(decodeHTML(style.slice(0, 2048)));
    if (eff.hard !== undefined && !f.hard) {
      f.hard = true;
      f.why = eff.hard;
    }
    if (eff.visibility !== undefined) f.invisible = !eff.visibility;
    if (eff.fontZero !== undefined) f.fontZero = eff.fontZero;
    if (eff.color) f.color = eff.color;
    if (eff.background) f.background = eff.background;
  }
  return f;
}

function hiddenReason(f: Frame): string | undefined {
  if (f.hard) return f.why || 'hidden';
  if (f.invisible) return 'visibility:hidden';
  if (f.fontZero) return 'font-size:0';
  if (sameColour(f.color, f.background)) return 'text colour = background';
  return undefined;
}

interface HtmlText {
  visible: string;
  hidden: { text: string; via: string }[];
}

/**
 * A linear scanner, not a parser: it keeps a stack of open elements with the inherited properties that decide
 * visibility. End tags pop to the nearest open element of that name (amortised O(1): each push is popped once);
 * an end tag with no open element of that name is ignored, which the per-name counts tell in O(1).
 */
export function extractHtml(html: string, meter?: Meter): HtmlText {
  const root: Frame = {
    name: '#root',
    hard: false,
    invisible: false,
    fontZero: false,
    color: { r: 0, g: 0, b: 0 },
    background: { r: 255, g: 255, b: 255 },
    why: '',
  };
  const stack: Frame[] = [root];
  const openCount = new Map<string, number>();
  let visible = '';
  const hidden: { text: string; via: string }[] = [];
  let hiddenBuf = '';
  let hiddenVia = '';
  const flushHidden = () => {
    if (hiddenBuf.trim().length > 0) hidden.push({ text: hiddenBuf, via: hiddenVia });
    hiddenBuf = '';
  };
  const emit = (text: string) => {
    if (text.length === 0) return;
    const top = stack[stack.length - 1]!;
    const why = hiddenReason(top);
    if (why === undefined) {
      visible += text;
    } else {
      if (hiddenVia !== why) flushHidden();
      hiddenVia = why;
      hiddenBuf += text;
    }
  };
  const boundary = (name: string) => {
    if (BLOCK.has(name)) {
      visible += '\n';
      hiddenBuf += '\n';
    } else if (name === 'td' || name === 'th') {
      visible += ' ';
      hiddenBuf += ' ';
    }
  };
  const pop = () => {
    if (meter) meter.steps++;
    const f = stack.pop()!;
    openCount.set(f.name, (openCount.get(f.name) ?? 1) - 1);
    boundary(f.name);
    const top = stack[stack.length - 1]!;
    if (hiddenReason(top) === undefined) flushHidden();
  };
  let i = 0;
  let textStart = 0;
  const n = html.length;
  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt < 0) break;
    if (meter) meter.steps += 1 + (lt - i);
    if (html.startsWith('<!--', lt)) {
      emit(html.slice(textStart, lt));
      const end = html.indexOf('-->', lt + 4);
      const body = html.slice(lt + 4, end < 0 ? n : end);
      // Conditional comments are browser plumbing, not prose.
      if (!body.startsWith('[if') && !body.startsWith('<![endif')) {
        flushHidden();
        hidden.push({ text: body, via: 'html comment' });
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
    const tag = readTag(html, lt);
    if (meter) meter.steps += ('name' in tag ? tag.end : tag.scanned) - lt;
    if (!('name' in tag)) {
      i = Math.max(lt + 1, tag.scanned);
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
      const closeAt = findEndTag(html, tag.name, i);
      const body = html.slice(i, closeAt < 0 ? n : closeAt);
      if (!SKIPPED_RAW.has(tag.name)) {
        const f = frameFor(tag, stack[stack.length - 1]!);
        stack.push(f);
        openCount.set(f.name, (openCount.get(f.name) ?? 0) + 1);
        emit(body);
        pop();
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
    if (VOID_ELEMENTS.has(tag.name) || tag.selfClosing) {
      boundary(tag.name);
      continue;
    }
    boundary(tag.name);
    stack.push(frameFor(tag, stack[stack.length - 1]!));
    openCount.set(tag.name, (openCount.get(tag.name) ?? 0) + 1);
  }
  if (textStart < n) emit(html.slice(textStart));
  flushHidden();
  return { visible, hidden };
}

/** First `</name` at or after `from`, any letter case. One pass over the characters it passes. */
function findEndTag(html: string, name: string, from: number): number {
  let i = html.indexOf('</', from);
  while (i >= 0) {
    if (html.slice(i + 2, i + 2 + name.length).toLowerCase() === name) return i;
    i = html.indexOf('</', i + 2);
  }
  return -1;
}

/** Pulls `<!-- ... -->` out of plain text: a rendered Markdown document or email shows none of it. */
export function extractComments(text: string): { visible: string; comments: string[] } {
  if (text.indexOf('<!--') < 0) return { visible: text, comments: [] };
  let visible = '';
  const comments: string[] = [];
  let i = 0;
  while (i < text.length) {
    const start = text.indexOf('<!--', i);
    if (start < 0) break;
    const end = text.indexOf('-->', start + 4);
    if (end < 0) break;
    visible += `${text.slice(i, start)}\n`;
    comments.push(text.slice(start + 4, end));
    i = end + 3;
  }
  visible += text.slice(i);
  return { visible, comments };
}
