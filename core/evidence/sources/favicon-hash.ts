/** MurmurHash3 x86 32-bit, as Python's `mmh3.hash` computes it (signed result). */
export function murmur3x86_32(data: Uint8Array, seed = 0): number {
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  let h = seed >>> 0;
  const blocks = data.length >>> 2;
  for (let i = 0; i < blocks; i++) {
    const o = i * 4;
    let k = data[o]! | (data[o + 1]! << 8) | (data[o + 2]! << 16) | (data[o + 3]! << 24);
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  const tail = blocks * 4;
  const rest = data.length & 3;
  if (rest > 0) {
    // The tail bytes are mixed in little-endian order, like the reference implementation's fall-through switch.
    let k = 0;
    for (let i = rest - 1; i >= 0; i--) k = (k << 8) | data[tail + i]!;
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
  }
  h ^= data.length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/** Python's `base64.encodebytes`: 76-character lines, each ending in "\n". */
export function base64EncodeBytes(bytes: Uint8Array): string {
  const flat = Buffer.from(bytes).toString('base64');
  let out = '';
  for (let i = 0; i < flat.length; i += 76) out += `${flat.slice(i, i + 76)}\n`;
  return out;
}

/** Shodan's `http.favicon.hash`: mmh3 of the newline-wrapped base64 of the icon bytes. */
export function shodanFaviconHash(bytes: Uint8Array): number {
  return murmur3x86_32(Buffer.from(base64EncodeBytes(bytes), 'ascii'));
}
