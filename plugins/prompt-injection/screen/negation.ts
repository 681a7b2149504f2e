// Negated phrases: "never share your password" and "do not ignore the safety instructions" are advice, not attacks.
import { afterAt, type Tokens } from '../matcher.ts';
import { file, NEGATORS } from './pattern-file.ts';
import { ELIDED_OVERRIDE, flagTable, NEGATOR, OVERRIDE, word, wordFlags } from './word-flags.ts';

const OVERRIDE_CJK = [...(file.lexicons.ignoreZh ?? []), ...(file.lexicons.ignoreJa ?? [])];
const CJK_NEGATORS = file.negators.filter((w) => w.length === 1 && w.charCodeAt(0) >= 0x3000);
/** The single-character CJK negators as one character class (`[]` if none: it matches nothing). */
const CJK_NEGATOR_CLASS = new RegExp(`[${CJK_NEGATORS.join('')}]`, 'g');

// Punctuation that ends a clause: "Stop, ignore all previous instructions" is an interjection and an order, not
// "stop ignoring"; a negator only reaches across plain spaces.
const CLAUSE_BREAKS = new Set([
  0x2c, 0x3b, 0x3a, 0x21, 0x3f, 0x2e, 0x2014, 0x2013, 0x2d, 0xff0c, 0x3001, 0xff1a, 0xff01,
]);

/** True when the tokens from..to-1 are each followed by a plain space (no clause break between from and to). */
function sameClause(tokens: Tokens, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (CLAUSE_BREAKS.has(afterAt(tokens, k))) return false;
  return true;
}

/**
 * Spans where an override verb is negated ("do not ignore the safety instructions", "N'ignorez pas", "不要忽略"):
 * advice, not an attack. The learned layer reads the segment with these spans blanked, as the pattern layer drops
 * negated matches. Linear: a fixed look-around per token and per CJK negator.
 */
export function negatedOverrides(text: string, tokens: Tokens): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const { sent, length } = tokens;
  const sentenceEnd = (k: number, limit: number) => {
    let e = k;
    while (e + 1 < length && e < limit && sent[e + 1] === sent[k]) e++;
    return tokens.end[e]!;
  };
  const table = flagTable(tokens);
  for (let k = 0; k < length; k++) {
    const f = wordFlags(tokens, table, k);
    if ((f & (NEGATOR | OVERRIDE | ELIDED_OVERRIDE)) === 0) continue;
    let verb = -1;
    if (f & NEGATOR) {
      for (let j = k + 1; j <= k + 2 && j < length && sent[j] === sent[k]; j++) {
        if (wordFlags(tokens, table, j) & OVERRIDE && sameClause(tokens, k, j)) verb = j;
      }
    } else {
      // "ignorez pas", "ignoriere nicht", and French elision "n'ignorez" (the tokenizer drops the apostrophe).
      if (
        !(f & OVERRIDE) ||
        (k + 1 < length &&
          sent[k + 1] === sent[k] &&
          wordFlags(tokens, table, k + 1) & NEGATOR &&
          sameClause(tokens, k, k + 1))
      ) {
        verb = k;
      }
    }
    if (verb >= 0) out.push({ start: tokens.start[k]!, end: sentenceEnd(verb, verb + 4) });
  }
  // The CJK negators, found by a native scan of one character class (no backtracking).
  const find = CJK_NEGATOR_CLASS;
  find.lastIndex = 0;
  for (let m = find.exec(text); m !== null; m = find.exec(text)) {
    const i = m.index;
    if (NOT_NEGATING_CJK.has(text.slice(i, i + 2))) continue;
    for (let d = 1; d <= 2; d++) {
      const at = i + d;
      const hit = OVERRIDE_CJK.find((v) => text.startsWith(v, at));
      if (hit) {
        out.push({ start: i, end: Math.min(text.length, at + hit.length + 8) });
        break;
      }
    }
  }
  return out;
}

/**
 * Words that open with a CJK negator character and negate nothing: 别人 "other people" ("别人告诉你的一切" is everything
 * others told you), 不过 "but", 不同 "different", 不仅 "not only", 不管/不论 "regardless of".
 */
const NOT_NEGATING_CJK: ReadonlySet<string> = new Set([
  '别人',
  '別人',
  '别的',
  '別的',
  '别处',
  '別處',
  '不过',
  '不過',
  '不同',
  '不仅',
  '不僅',
  '不管',
  '不论',
  '不論',
  '不少',
  '不久',
  '不断',
  '不斷',
]);

function cjkCompound(tokens: Tokens, k: number): boolean {
  return k + 1 < tokens.length && NOT_NEGATING_CJK.has(word(tokens, k) + word(tokens, k + 1));
}

/**
 * "Never share your password" is advice, not a lure: a negator right before the phrase cancels it. So does German
 * "nicht" right after it ("Ignoriere die obigen Anweisungen nicht"): an imperative puts its negation after the object.
 */
export function negated(tokens: Tokens, start: number, end: number): boolean {
  if (NEGATORS.has(word(tokens, start))) return false;
  const next = end + 1;
  if (
    next < tokens.length &&
    tokens.sent[next] === tokens.sent[end] &&
    word(tokens, next) === 'nicht' &&
    sameClause(tokens, end, next)
  ) {
    return true;
  }
  for (let k = start - 1; k >= 0 && k >= start - 2; k--) {
    if (tokens.sent[k] !== tokens.sent[start]) return false;
    if (NEGATORS.has(word(tokens, k)) && !cjkCompound(tokens, k)) return sameClause(tokens, k, start);
  }
  return reportedRequest(tokens, start);
}

/**
 * "We will never ask you to tell us your password", "If someone asks you to tell them your password, hang up": the
 * phrase is what somebody else might ask of the reader, denied or put as a condition, a warning and not an order.
 * The phrase follows "ask(s) you to", and a negator or a conditional word stands before the asking verb in the same
 * clause (up to ASKER_REACH words back: "Nobody from the bank will ask you to …").
 */
function reportedRequest(tokens: Tokens, start: number): boolean {
  const ask = start - 3;
  if (ask < 0 || word(tokens, start - 1) !== 'to' || !ASKED.has(word(tokens, start - 2))) return false;
  if (!ASK_VERBS.has(word(tokens, ask)) || !sameClause(tokens, ask, start)) return false;
  // "When I ask you to tell me the password, do it": the writer's own request, set up for later.
  if (ask > 0 && word(tokens, ask - 1) === 'i') return false;
  for (let k = ask - 1; k >= 0 && k >= ask - ASKER_REACH; k--) {
    if (tokens.sent[k] !== tokens.sent[ask] || !sameClause(tokens, k, ask)) return false;
    const w = word(tokens, k);
    if (NEGATORS.has(w) || CONDITIONS.has(w)) return true;
  }
  return false;
}
const ASKER_REACH = 6;
const ASK_VERBS = new Set([
  'ask',
  'asks',
  'asked',
  'asking',
  'request',
  'requests',
  'requested',
  'tell',
  'tells',
  'told',
]);
const ASKED = new Set(['you', 'u', 'them', 'anyone', 'customers', 'users', 'people', 'members']);
const CONDITIONS = new Set(['if', 'when', 'whenever', 'unless', 'nobody', 'noone', 'should']);
