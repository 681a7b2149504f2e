/**
 * The URL of a request to a lab server, or undefined when the request line names none we can read. `new URL(raw,
 * base)` throws on `//?q=x` (a scheme-relative reference with an empty host), and a throw inside a request handler
 * would take the whole lab process down: every lab server answers such a request 400 instead.
 */
export function labRequestUrl(raw: string | undefined): URL | undefined {
  const target = raw ?? '/';
  try {
    // `//host/…` is not an origin-form path (it reads as a scheme-relative URL): refused like any unreadable target.
    if (target.startsWith('/') && !target.startsWith('//')) return new URL(`http://lab.invalid${target}`);
    // absolute-form (a client talking to us as a proxy would)
    if (/^https?:\/\//i.test(target)) return new URL(target);
  } catch {
    return undefined;
  }
  return undefined;
}
