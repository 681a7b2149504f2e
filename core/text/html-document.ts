// A small, linear HTML reader: just the parts of a page the scan reads (visible text, links, forms and their
// fields, inline scripts): the content and brand detectors judge pages with it, and the scan's one-hop follow finds
// a page's call to action with it. It never backtracks: every step moves forward with indexOf or a
// bounded, sticky regex, so a hostile page costs time proportional to its (capped) length.
import { decodeHTML, decodeHTMLAttribute } from 'entities';

/** Pages are judged on their first 1 MB (the fetcher's body cap): kits inline megabytes of CSS before the form. */
export const MAX_HTML_CHARS = 1_000_000;
/** A longer tag is garbage or an attack; it is skipped, not parsed. */
const MAX_TAG_CHARS = 4096;
const MAX_TEXT_CHARS = 100_000;
const MAX_ITEMS = 500;

export interface FormField {
  tag: 'input' | 'select' | 'textarea';
  type: string;
  attrs: Readonly<Record<string, string>>;
  /** The text of the `<label>` around it or pointing at it. */
  label: string;
}

export interface HtmlForm {
  action: string;
  method: string;
  fields: FormField[];
  /** Text of its submit buttons, for describing the form as a call to action. */
  submitText: string;
}

export interface HtmlLink {
  href: string;
  text: string;
  kind: 'link' | 'button';
}

export interface HtmlDocument {
  title: string;
  visibleText: string;
  links: HtmlLink[];
  forms: HtmlForm[];
  /** Fields outside any `<form>` (kits often post them with script). */
  looseFields: FormField[];
  inlineScripts: string[];
  /** `src` of external scripts and iframes: vendor challenges load from known hosts. */
  resourceUrls: string[];
  metaRefresh?: string;
  /** Text of `<h1>`–`<h3>` elements, in order (≤ 40): where a page names itself ("Sign in to Acme"). */
  headings: string[];
  /** `<meta>` values by `property` or `name`, lower-cased keys (`og:site_name`, `application-name`, `og:title`). */
  meta: Record<string, string>;
  /** `<img>` sources and alt texts (≤ 200): logos name the brand a page presents. */
  images: { src: string; alt: string }[];
  /** `<link rel="…icon…">` hrefs. */
  icons: string[];
  /** Text of buttons and submit inputs, inside or outside forms (≤ 200). */
  buttons: string[];
}

/** Elements whose content is not markup: their text is read raw up to the matching close tag. */
const RAW_TEXT_ELEMENTS = new Set(['script', 'style', 'title', 'textarea', 'noscript', 'template', 'xmp']);
const TAG_OPEN = /<(\/?)([a-zA-Z][a-zA-Z0-9-]{0,31})/y;
const ATTRIBUTE = /([^\s"'>/=]{1,64})(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]{1,2048})))?/g;

/** Attributes of one start tag (its source, already bounded). Names lower-cased, values entity-decoded. */
export function parseAttributes(tagSource: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  const body = tagSource.replace(/^<[a-zA-Z][a-zA-Z0-9-]{0,31}/, '').replace(/\/?>$/, '');
  for (const m of body.matchAll(ATTRIBUTE)) {
    const name = m[1]!.toLowerCase();
    if (name in attrs) continue;
    attrs[name] = decodeHTMLAttribute(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return attrs;
}

/**
 * Characters the quote-aware tag-end search may read per document, beyond the document's own length. Honest
 * markup reads each tag once (the whole page at most); markup built so that every `<` starts a MAX_TAG_CHARS scan
 * that fails (`">x"<a=` repeated) would cost MAX_TAG_CHARS per tag. Past the budget a tag ends at its next `>`.
 */
const TAG_SCAN_SLACK = 1_000_000;

/** Index just past the `>` closing the tag at `start`, honouring quoted values; -1 if none within the bound. */
function tagEnd(html: string, start: number, budget: { chars: number }): number {
  if (budget.chars <= 0) {
    const gt = html.indexOf('>', start + 1);
    return gt < 0 || gt - start > MAX_TAG_CHARS ? -1 : gt + 1;
  }
  let quote = '';
  const limit = Math.min(html.length, start + MAX_TAG_CHARS);
  for (let i = start + 1; i < limit; i++) {
    const c = html[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '>') {
      budget.chars -= i - start;
      return i + 1;
    }
  }
  budget.chars -= limit - start;
  return -1;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

class DocumentBuilder {
  readonly doc: HtmlDocument = {
    title: '',
    visibleText: '',
    links: [],
    forms: [],
    looseFields: [],
    inlineScripts: [],
    resourceUrls: [],
    headings: [],
    meta: {},
    images: [],
    icons: [],
    buttons: [],
  };
  private heading?: number;
  private readonly text: string[] = [];
  private textLength = 0;
  private form?: HtmlForm;
  private link?: { href: string; kind: HtmlLink['kind']; from: number; formaction?: boolean };
  private label?: { from: number; fields: FormField[]; htmlFor?: string };
  private readonly labelsFor = new Map<string, string>();
  private readonly fieldsById = new Map<string, FormField>();

  addText(raw: string): void {
    if (this.textLength >= MAX_TEXT_CHARS || !raw.trim()) return;
    const decoded = decodeHTML(raw);
    this.text.push(decoded);
    this.textLength += decoded.length;
  }

  private textSince(from: number): string {
    return collapse(this.text.slice(from).join(' '));
  }

  openTag(name: string, attrs: Record<string, string>): void {
    switch (name) {
      case 'a':
      case 'area':
        if (attrs.href && this.doc.links.length < MAX_ITEMS) {
          this.link = { href: attrs.href, kind: 'link', from: this.text.length };
        }
        if (attrs['aria-label']) this.addText(attrs['aria-label']);
        break;
      case 'button':
        // A button is an action link when it navigates on its own (formaction, or an inline location change).
        if (attrs.formaction || attrs.onclick) {
          const href =
            attrs.formaction ?? /location(?:\.href)?\s*=\s*["']([^"']{1,2048})["']/.exec(attrs.onclick!)?.[1];
          if (href) this.link = { href, kind: 'button', from: this.text.length };
        }
        break;
      case 'form':
        this.form = {
          action: attrs.action ?? '',
          method: (attrs.method ?? 'get').toLowerCase(),
          fields: [],
          submitText: '',
        };
        if (this.doc.forms.length < MAX_ITEMS) this.doc.forms.push(this.form);
        break;
      case 'input':
      case 'select':
      case 'textarea':
        this.addField(name, attrs);
        break;
      case 'label':
        this.label = { from: this.text.length, fields: [], htmlFor: attrs.for };
        break;
      case 'img':
        if (attrs.alt) this.addText(attrs.alt);
        if (this.doc.images.length < MAX_ITEMS && (attrs.src || attrs.alt)) {
          this.doc.images.push({ src: (attrs.src ?? '').slice(0, 512), alt: attrs.alt ?? '' });
        }
        break;
      case 'h1':
      case 'h2':
      case 'h3':
        this.heading = this.text.length;
        break;
      case 'link':
        if (/\bicon\b/i.test(attrs.rel ?? '') && attrs.href && this.doc.icons.length < 10)
          this.doc.icons.push(attrs.href);
        break;
      case 'iframe':
      case 'script':
        if (attrs.src && this.doc.resourceUrls.length < MAX_ITEMS) this.doc.resourceUrls.push(attrs.src);
        break;
      case 'meta':
        if (attrs['http-equiv']?.toLowerCase() === 'refresh' && attrs.content) this.doc.metaRefresh ??= attrs.content;
        {
          const key = (attrs.property ?? attrs.name ?? '').toLowerCase();
          if (key && attrs.content && Object.keys(this.doc.meta).length < 100 && !(key in this.doc.meta)) {
            this.doc.meta[key] = collapse(attrs.content).slice(0, 300);
          }
        }
        break;
    }
  }

  private addField(tag: FormField['tag'], attrs: Record<string, string>): void {
    const type = (attrs.type ?? (tag === 'input' ? 'text' : tag)).toLowerCase();
    if (tag === 'input' && (type === 'submit' || type === 'button' || type === 'image')) {
      if (attrs.value && this.doc.buttons.length < MAX_ITEMS) this.doc.buttons.push(collapse(attrs.value));
      if (this.form && attrs.value) this.form.submitText = collapse(`${this.form.submitText} ${attrs.value}`);
      return;
    }
    const field: FormField = { tag, type, attrs, label: '' };
    const list = this.form ? this.form.fields : this.doc.looseFields;
    if (list.length >= MAX_ITEMS) return;
    list.push(field);
    this.label?.fields.push(field);
    if (attrs.id) this.fieldsById.set(attrs.id, field);
  }

  closeTag(name: string): void {
    if (name === 'button' && this.doc.buttons.length < MAX_ITEMS) {
      const text = this.textSince(this.lastButtonStart);
      if (text) this.doc.buttons.push(text.slice(0, 200));
    }
    switch (name) {
      case 'h1':
      case 'h2':
      case 'h3':
        if (this.heading !== undefined && this.doc.headings.length < 40) {
          const text = this.textSince(this.heading).slice(0, 300);
          if (text) this.doc.headings.push(text);
        }
        this.heading = undefined;
        break;
      case 'a':
      case 'button':
        if (this.link) {
          this.doc.links.push({ href: this.link.href, kind: this.link.kind, text: this.textSince(this.link.from) });
          this.link = undefined;
        } else if (name === 'button' && this.form) {
          this.form.submitText = collapse(`${this.form.submitText} ${this.textSince(this.lastButtonStart)}`);
        }
        break;
      case 'form':
        this.form = undefined;
        break;
      case 'label':
        if (this.label) {
          const text = this.textSince(this.label.from);
          for (const f of this.label.fields) f.label = text;
          if (this.label.htmlFor) this.labelsFor.set(this.label.htmlFor, text);
          this.label = undefined;
        }
        break;
    }
  }

  /** Where the current `<button>` began, so a submit button's text can be attributed to its form. */
  lastButtonStart = 0;

  rawText(name: string, content: string): void {
    if (name === 'title') this.doc.title ||= collapse(decodeHTML(content));
    else if (name === 'script' && this.doc.inlineScripts.length < MAX_ITEMS && content.trim()) {
      this.doc.inlineScripts.push(content);
    }
    // style, noscript, template, textarea: not visible in a scripting browser's rendering.
  }

  finish(): HtmlDocument {
    for (const [id, text] of this.labelsFor) {
      const field = this.fieldsById.get(id);
      if (field && !field.label) field.label = text;
    }
    this.doc.visibleText = collapse(this.text.join(' ')).slice(0, MAX_TEXT_CHARS);
    return this.doc;
  }

  get textIndex(): number {
    return this.text.length;
  }
}

/** Reads the first `MAX_HTML_CHARS` of a page. */
export function readHtml(input: string): HtmlDocument {
  const html = input.length > MAX_HTML_CHARS ? input.slice(0, MAX_HTML_CHARS) : input;
  const lower = html.toLowerCase();
  const builder = new DocumentBuilder();
  const tagScan = { chars: html.length + TAG_SCAN_SLACK };
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      builder.addText(html.slice(i));
      break;
    }
    if (lt > i) builder.addText(html.slice(i, lt));
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      i = end < 0 ? html.length : end + 3;
      continue;
    }
    TAG_OPEN.lastIndex = lt;
    const open = TAG_OPEN.exec(html);
    // Only a real tag name earns the (bounded) search for its end: a run of stray `<` must cost one step each, not
    // MAX_TAG_CHARS each (500 000 of them took 40 s before).
    const end = open ? tagEnd(html, lt, tagScan) : -1;
    if (!open || end < 0) {
      // `<!doctype>`, `<?xml>`, a stray `<`, or a tag too long to be honest: skip past it.
      if (open || html[lt + 1] === '!' || html[lt + 1] === '?') {
        const gt = html.indexOf('>', lt);
        i = gt < 0 ? html.length : gt + 1;
      } else {
        builder.addText('<');
        i = lt + 1;
      }
      continue;
    }
    const closing = open[1] === '/';
    const name = open[2]!.toLowerCase();
    i = end;
    if (closing) {
      builder.closeTag(name);
      continue;
    }
    if (name === 'button') builder.lastButtonStart = builder.textIndex;
    builder.openTag(name, parseAttributes(html.slice(lt, end)));
    if (RAW_TEXT_ELEMENTS.has(name)) {
      const close = lower.indexOf(`</${name}`, i);
      const contentEnd = close < 0 ? html.length : close;
      builder.rawText(name, html.slice(i, contentEnd));
      const gt = close < 0 ? -1 : html.indexOf('>', close);
      i = gt < 0 ? html.length : gt + 1;
    }
  }
  return builder.finish();
}
