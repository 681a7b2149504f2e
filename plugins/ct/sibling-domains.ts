/** `*.a.example` and `www.a.example` stand for `a.example` when deciding whether a name is the host itself. */
function bare(name: string): string {
  return name.replace(/^\*\./, '').replace(/^www\./, '');
}

/** A name that is the host, its www twin, or a wildcard covering it names the host, not a sibling. */
function namesHost(name: string, host: string): boolean {
  const hostBare = bare(host);
  if (bare(name) === hostBare) return true;
  return name.startsWith('*.') && host.endsWith(name.slice(1));
}

/**
 * Other names sharing the host's certificates. Phishing kits often put several look-alike domains on one
 * certificate, so these are worth showing (and the brand plugin compares them to trusted brands).
 */
export function siblingDomains(certificateNames: Iterable<string>, host: string, max: number): string[] {
  const siblings = new Set<string>();
  for (const raw of certificateNames) {
    const name = raw.trim().toLowerCase().replace(/\.+$/, '');
    if (name && !namesHost(name, host)) siblings.add(name);
  }
  return [...siblings].sort().slice(0, max);
}
