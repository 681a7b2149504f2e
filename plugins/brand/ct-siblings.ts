// Names that share the host's certificates (CT entries and the served certificate's SANs) and imitate a trusted
// brand. Kits often put every look-alike domain of a campaign on one certificate, so a harmless-looking host can
// give itself away through its siblings.
import type { BrandCatalog, ScanEvidence } from '../../core/plugin-api.ts';
import { brandOwning, parseTarget, type Target } from '../../core/plugin-api.ts';
import { findImpersonation, type ImpersonationHit } from '../_shared/brand-matching/impersonation.ts';

export interface SiblingImpersonation {
  sibling: string;
  brand: string;
  /** Edits from the brand token after look-alike folding: 0 spells it (or a homoglyph of it), 1 is one typo. */
  distance: number;
}

/** Shared CDN certificates can carry hundreds of customers' names; past this many the list is not the operator's. */
const MAX_NAMES = 100;

/** Undefined when neither CT nor the TLS handshake answered: no evidence, no verdict. */
export function certificateNames(evidence: ScanEvidence): string[] | undefined {
  if (!evidence.ct.ok && !evidence.tls.ok) return undefined;
  const names = new Set<string>();
  const add = (name: string) => {
    const bare = name.trim().toLowerCase().replace(/^\*\./, '').replace(/\.$/, '');
    if (bare) names.add(bare);
  };
  if (evidence.tls.ok) for (const san of evidence.tls.value.sans) add(san);
  if (evidence.ct.ok) for (const entry of evidence.ct.value) for (const n of entry.names) add(n);
  return [...names].slice(0, MAX_NAMES);
}

/** The host's own name (and its `www.`) is the lexical check's business, not a sibling. */
function isSelf(name: string, target: Target): boolean {
  const host = target.host.replace(/^www\./, '');
  return name === host || name === `www.${host}`;
}

const distanceOf = (hit: ImpersonationHit): number => (hit.technique === 'typosquat' ? 1 : 0);

export function ctSiblingImpersonation(
  evidence: ScanEvidence,
  brands: BrandCatalog,
): SiblingImpersonation[] | undefined {
  const names = certificateNames(evidence);
  if (!names) return undefined;
  const { target } = evidence;
  // A brand's certificate naming more of the brand's domains (ones our catalog lacks) is not an imitation.
  const owner = brandOwning(target, brands)?.id;
  const found: SiblingImpersonation[] = [];
  for (const name of names) {
    if (isSelf(name, target)) continue;
    let sibling: Target;
    try {
      sibling = parseTarget(name);
    } catch {
      continue;
    }
    if (sibling.isIp) continue;
    for (const hit of findImpersonation(sibling, brands)) {
      if (hit.brand === owner || found.some((f) => f.sibling === name && f.brand === hit.brand)) continue;
      found.push({ sibling: name, brand: hit.brand, distance: distanceOf(hit) });
    }
  }
  return found;
}
