// Text written as a list of byte codes: "49 67 6e 6f 72 65 …", "\x49\x67\x6e…", "%49%67%6E…", "0x49, 0x67, …",
// "01001001 01100111 …", "73 103 110 111 …". encoded-runs.ts reads unbroken base64 and hex; these forms put a
// separator or a prefix between the bytes. A list is read back only when it decodes to readable text, so hex dumps,
// MAC addresses, tables of numbers and URLs with a few escapes stay what they are.
import { forEachRun } from './char-runs.ts';
import { readable } from './encoded-runs.ts';

/** A sentence: fewer bytes are a word or a number. */
const MIN_BYTES = 12;

/** At most this many characters of byte lists are decoded per input. */
const BUDGET = 64 * 1024;

interface ByteForm {
  /** A whole list; one match per list. */
  list: RegExp;
  /** One byte code inside the list, and the radix it is written in. */
  code: RegExp;
  radix: number;
}

const FORMS: ByteForm[] = [
  { list: /(?:\\x[0-9a-fA-F]{2}){12,}/g, code: /[0-9a-fA-F]{2}/g, radix: 16 },
  { list: /(?:%[0-9a-fA-F]{2}){12,}/g, code: /[0-9a-fA-F]{2}/g, radix: 16 },
  { list: /(?:0x[0-9a-fA-F]{2}(?:, ?| )){11,}0x[0-9a-fA-F]{2}/g, code: /(?<=0x)[0-9a-fA-F]{2}/g, radix: 16 },
  { list: /\b(?:[0-9a-fA-F]{2}[ :,]){11,}[0-9a-fA-F]{2}\b/g, code: /[0-9a-fA-F]{2}/g, radix: 16 },
  { list: /\b(?:[01]{8} ){11,}[01]{8}\b/g, code: /[01]{8}/g, radix: 2 },
  { list: /\b(?:\d{2,3}(?:, ?| )){11,}\d{2,3}\b/g, code: /\d{2,3}/g, radix: 10 },
];

/** Characters byte lists are written with; a list of 12 bytes is at least 35 of them in a row ("49 67 … 6e"). */
const CODE_CHARS = new Uint8Array(128);
for (const ch of '0123456789abcdefABCDEFx\\%:, ') CODE_CHARS[ch.charCodeAt(0)] = 1;
const MIN_RUN = 35;

/** The readable texts written as lists of byte codes in `text`, one per line; '' when there are none. */
export function decodeByteLists(text: string): string {
  const out: string[] = [];
  let budget = BUDGET;
  // Only runs made of code characters go to the regular expressions.
  forEachRun(text, CODE_CHARS, MIN_RUN, (from, to) => {
    const run = text.slice(from, to);
    for (const form of FORMS) {
      form.list.lastIndex = 0;
      for (let m = form.list.exec(run); m !== null && budget > 0; m = form.list.exec(run)) {
        budget -= m[0].length;
        const bytes = (m[0].match(form.code) ?? []).map((c) => Number.parseInt(c, form.radix));
        if (bytes.length < MIN_BYTES || bytes.some((b) => b > 255)) continue;
        const decoded = Buffer.from(bytes).toString('utf8');
        if (readable(decoded)) out.push(decoded);
      }
    }
    return budget > 0;
  });
  return out.join('\n');
}
