// A small, linear HTML reader: just the parts of a page the scan reads (visible text, links, forms and their
// fields, inline scripts): the content and brand detectors judge pages with it, and the scan's one-hop follow finds
// a page's call to action with it. The markup is read by the bounded tokenizer (html-tokenizer.ts); this module
// builds the document from its tokens.
import { decodeHTML } from 'entities';
import { parseAttributes, tokenizeHtml } from './html-tokenizer.ts';

export { parseAttributes } from './html-tokenizer.ts';

/** Pages are judged on their first 1 MB (the fetcher's body cap): kits inline megabytes of CSS before the form. */
export const MAX_HTML_CHARS = 1_000_000;
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
  const builder = new DocumentBuilder();
  tokenizeHtml(html, {
    text: (raw) => builder.addText(raw),
    startTag: (name, source) => {
      if (name === 'button') builder.lastButtonStart = builder.textIndex;
      builder.openTag(name, parseAttributes(source));
    },
    endTag: (name) => builder.closeTag(name),
    rawText: (name, content) => builder.rawText(name, content),
  });
  return builder.finish();
}
