// The inline-style declarations that hide text: display, opacity, visibility, font size, colour against the
// background, off-screen positions, zero-size boxes, clipping and scale(0). One pass over each (capped) style.
export interface Rgb {
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

export function sameColour(a: Rgb, b: Rgb): boolean {
  return Math.abs(a.r - b.r) + Math.abs(a.g - b.g) + Math.abs(a.b - b.b) <= 24;
}

function cssLength(v: string): number {
  const n = Number.parseFloat(v);
  return Number.isNaN(n) ? Number.NaN : n;
}

export interface StyleEffect {
  hard?: string;
  visibility?: boolean;
  fontZero?: boolean;
  color?: Rgb;
  background?: Rgb;
}

export function readStyle(style: string): StyleEffect {
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
