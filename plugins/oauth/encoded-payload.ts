// Authorize targets hidden inside encoded parameter values (hex, base64, URL-safe base64, extra percent layers),
// the way phishing kits smuggle a real provider authorize URL or a consent request past URL filters.
import { parseQuery, type UrlParam } from '../_shared/oauth/params.ts';

export type PayloadEncoding = 'percent' | 'hex' | 'base64' | 'base64url';

export interface DecodedTarget {
  /** Parameter the payload was found in (`from` says query or fragment). */
  param: string;
  from: UrlParam['from'];
  /** Decoding steps from the raw value to the target, outermost first. */
  encodings: PayloadEncoding[];
  /** The decoded target, cut for display. */
  decoded: string;
  /** Host of the decoded authorize URL, when the target is a URL. */
  authorize_host?: string;
}

/** Decides whether decoded text is an authorize target; returns its host ('' for a bare query string). */
export type AuthorizeTargetRecognizer = (text: string) => string | undefined;

/** Limits that keep the search bounded whatever the input. */
export const PAYLOAD_LIMITS = {
  /** Decoding layers followed from a raw value. */
  maxDepth: 4,
  /** A value longer than this is cut before any decoding. */
  maxValueChars: 8192,
  /** Values examined in total (raw, decoded and nested parameters together). */
  maxNodes: 256,
  /** Characters produced by decoding in total. */
  maxDecodedChars: 65_536,
  /** Shorter strings are ids and tokens, never a hidden URL. */
  minEncodedLength: 16,
  reportedChars: 300,
} as const;

interface Budget {
  nodes: number;
  decodedChars: number;
}

const HEX = /^[0-9a-f]+$/i;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
const PERCENT_ESCAPE = /%[0-9a-f]{2}/i;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Decoded bytes count only as text a browser or user would read: valid UTF-8, almost no control characters. */
function asReadableText(bytes: Uint8Array): string | undefined {
  if (bytes.length === 0) return undefined;
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
  let control = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x20 && ch !== '\n' && ch !== '\r' && ch !== '\t') control++;
  }
  return control <= text.length * 0.02 ? text : undefined;
}

/** Every way `value` decodes by one layer. Hex strings are valid base64 too, so both are tried. */
export function decodeOneLayer(value: string): { encoding: PayloadEncoding; text: string }[] {
  const layers: { encoding: PayloadEncoding; text: string }[] = [];
  if (PERCENT_ESCAPE.test(value)) {
    try {
      layers.push({ encoding: 'percent', text: decodeURIComponent(value) });
    } catch {
      // A lone `%` is not an encoding layer; the other decoders may still apply.
    }
  }
  if (value.length < PAYLOAD_LIMITS.minEncodedLength) return layers;
  if (value.length % 2 === 0 && HEX.test(value)) {
    const text = asReadableText(Buffer.from(value, 'hex'));
    if (text) layers.push({ encoding: 'hex', text });
  }
  // URLSearchParams turns an unescaped `+` into a space; base64 never contains spaces, so undo it.
  const b64 = value.includes(' ') ? value.replaceAll(' ', '+') : value;
  if (b64.length % 4 !== 1) {
    const encoding = BASE64.test(b64) ? 'base64' : BASE64URL.test(b64) ? 'base64url' : undefined;
    if (encoding) {
      const text = asReadableText(Buffer.from(b64, encoding));
      if (text) layers.push({ encoding, text });
    }
  }
  return layers;
}

/** Parameter values inside a URL or query string, so `?r=https://x/?d=<base64>` is searched too. */
function nestedValues(text: string): string[] {
  const question = text.indexOf('?');
  const query = /^https?:\/\//i.test(text) ? (question >= 0 ? text.slice(question + 1) : '') : text;
  if (!query.includes('=')) return [];
  return parseQuery(query.replace(/^[?#]/, '')).map((p) => p.value);
}

interface Visit {
  param: UrlParam;
  recognize: AuthorizeTargetRecognizer;
  budget: Budget;
  found: Map<string, DecodedTarget>;
}

function explore(value: string, encodings: readonly PayloadEncoding[], visit: Visit): void {
  if (visit.budget.nodes <= 0) return;
  visit.budget.nodes--;
  const text = value.slice(0, PAYLOAD_LIMITS.maxValueChars);
  // A plain authorize URL in a parameter (`continue=https://accounts.google.com/…`) is ordinary; only a
  // target that had to be decoded is hidden.
  if (encodings.length > 0) {
    const host = visit.recognize(text);
    if (host !== undefined) {
      if (!visit.found.has(text)) {
        visit.found.set(text, {
          param: visit.param.name,
          from: visit.param.from,
          encodings: [...encodings],
          decoded: text.slice(0, PAYLOAD_LIMITS.reportedChars),
          ...(host ? { authorize_host: host } : {}),
        });
      }
      return;
    }
  }
  if (encodings.length >= PAYLOAD_LIMITS.maxDepth) return;
  for (const layer of decodeOneLayer(text)) {
    if (visit.budget.decodedChars < layer.text.length) return;
    visit.budget.decodedChars -= layer.text.length;
    explore(layer.text, [...encodings, layer.encoding], visit);
  }
  for (const nested of nestedValues(text)) explore(nested, encodings, visit);
}

/** Authorize targets hidden in encoded values of `params`, each reported once with its decoding chain. */
export function findEncodedAuthorizeTargets(
  params: readonly UrlParam[],
  recognize: AuthorizeTargetRecognizer,
): DecodedTarget[] {
  const budget: Budget = { nodes: PAYLOAD_LIMITS.maxNodes, decodedChars: PAYLOAD_LIMITS.maxDecodedChars };
  const found = new Map<string, DecodedTarget>();
  for (const param of params) explore(param.value, [], { param, recognize, budget, found });
  return [...found.values()];
}
