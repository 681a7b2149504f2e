// The open-element frames of the HTML scanner: each carries the inherited properties that decide whether its text
// is visible (hard-hidden, visibility, zero font size, colour and background), and why not.
import { decodeHTML } from 'entities';
import { type Rgb, readStyle, sameColour } from './html-css.ts';
import type { ParsedTag } from './html-tag.ts';

export interface Frame {
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

export function frameFor(tag: ParsedTag, parent: Frame): Frame {
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

export function hiddenReason(f: Frame): string | undefined {
  if (f.hard) return f.why || 'hidden';
  if (f.invisible) return 'visibility:hidden';
  if (f.fontZero) return 'font-size:0';
  if (sameColour(f.color, f.background)) return 'text colour = background';
  return undefined;
}
