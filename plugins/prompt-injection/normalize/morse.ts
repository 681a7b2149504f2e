// Morse code decoded as an extra visible segment (visible, but unreadable to most people).
import type { Meter } from '../matcher.ts';

const MORSE: Record<string, string> = {
  '.-': 'a',
  '-...': 'b',
  '-.-.': 'c',
  '-..': 'd',
  '.': 'e',
  '..-.': 'f',
  '--.': 'g',
  '....': 'h',
  '..': 'i',
  '.---': 'j',
  '-.-': 'k',
  '.-..': 'l',
  '--': 'm',
  '-.': 'n',
  '---': 'o',
  '.--.': 'p',
  '--.-': 'q',
  '.-.': 'r',
  '...': 's',
  '-': 't',
  '..-': 'u',
  '...-': 'v',
  '.--': 'w',
  '-..-': 'x',
  '-.--': 'y',
  '--..': 'z',
  '-----': '0',
  '.----': '1',
  '..---': '2',
  '...--': '3',
  '....-': '4',
  '.....': '5',
  '-....': '6',
  '--...': '7',
  '---..': '8',
  '----.': '9',
  '.-.-.-': '.',
  '--..--': ',',
  '..--..': '?',
  '.----.': "'",
  '-.-.--': '!',
  '-..-.': '/',
  '-.--.': '(',
  '-.--.-': ')',
  '---...': ':',
  '-.-.-.': ';',
  '-...-': '=',
  '.-.-.': '+',
  '-....-': '-',
  '.-..-.': '"',
  '.--.-.': '@',
};
const MIN_MORSE_LETTERS = 24;

/**
 * Instructions spelled in Morse code (".. --. -. --- .-. ." = "ignore") are an obfuscation, like styled letters.
 * One pass over runs made only of dots, dashes, spaces and slashes: a single space separates letters, two or more
 * spaces or a slash separate words. A run decodes when it has enough letters and nearly all codes are valid.
 */
export function decodeMorse(text: string, meter?: Meter): string {
  let out = '';
  const n = text.length;
  const isMorse = (c: number) => c === 0x2e || c === 0x2d || c === 0x20 || c === 0x2f;
  // A run starts at a dot or dash; the native search skips ordinary text (a character class, nothing to backtrack).
  const next = /[.-]/g;
  while (out.length < 65536) {
    const found = next.exec(text);
    if (found === null) break;
    const start = found.index;
    let i = start;
    while (i < n && isMorse(text.charCodeAt(i))) i++;
    next.lastIndex = i;
    if (i - start < 2 * MIN_MORSE_LETTERS) continue;
    if (meter) meter.steps += i - start;
    let decoded = '';
    let letters = 0;
    let bad = 0;
    let code = '';
    let spaces = 0;
    const flush = () => {
      if (code.length === 0) return;
      const ch = code.length <= 7 ? MORSE[code] : undefined;
      if (ch === undefined) bad++;
      else letters++;
      decoded += ch ?? '?';
      code = '';
    };
    for (let k = start; k < i; k++) {
      const c = text.charCodeAt(k);
      if (c === 0x2e || c === 0x2d) {
        if (spaces >= 2 && decoded.length > 0) decoded += ' ';
        spaces = 0;
        code += c === 0x2e ? '.' : '-';
      } else {
        flush();
        spaces += c === 0x2f ? 2 : 1;
      }
    }
    flush();
    if (letters >= MIN_MORSE_LETTERS && bad * 10 <= letters) out += `${decoded}\n`;
  }
  return out;
}
