// A custom evasion gate: the kit shows scanners a near-empty "verifying your session" page that fingerprints the
// visitor (storage, cookies), asks for a permission, and redirects (often to itself) until it decides the visitor
// is a victim. What makes it a *scan block* is that the analysed page is still that holding page once the scan has
// followed every redirect it could; a redirect page the scanner got past leaves real content behind it instead.
import type { PageBehaviors } from './script-behaviors.ts';

/** Longer visible text is a page with something to say, not a holding page. */
export const HOLDING_TEXT_MAX_CHARS = 400;
const HOLDING_MAX_LINKS = 3;
const EXCERPT_CHARS = 200;

export type GateStatus = 'evasion_gate' | 'vendor_challenge' | 'page_has_content' | 'no_gate_behavior' | 'no_page';

export interface GateAssessment {
  status: GateStatus;
  visible_text: string;
  behaviors: PageBehaviors;
  /** The gate behaviours seen, by kind. */
  signals: string[];
}

export interface GateInput {
  visibleText: string;
  linkCount: number;
  hasTextEntry: boolean;
  behaviors: PageBehaviors;
  /** Any recognised vendor marker: a vendor's challenge is not a custom gate, whatever it writes. */
  vendorMarker: boolean;
}

export function isHoldingPage(input: Pick<GateInput, 'visibleText' | 'linkCount' | 'hasTextEntry'>): boolean {
  return (
    input.visibleText.length <= HOLDING_TEXT_MAX_CHARS && input.linkCount <= HOLDING_MAX_LINKS && !input.hasTextEntry
  );
}

function gateSignals(b: PageBehaviors): string[] {
  const signals: string[] = [];
  if (b.storage_writes.length > 0) signals.push('storage_write');
  if (b.cookie_writes > 0) signals.push('cookie_write');
  if (b.permission_prompts.length > 0) signals.push('permission_prompt');
  if (b.js_redirects > 0) signals.push('redirect');
  if (b.automation_probe) signals.push('automation_probe');
  return signals;
}

/**
 * A gate needs a holding page, no vendor marker, and either a permission prompt (no honest blank page asks for
 * one) or a redirect that also leaves state behind (storage, a cookie) or probes for automation. A lone redirect
 * is every "moved" page; storage and cookies without a redirect are every app shell whose content loads from an
 * external bundle the static reader cannot see.
 */
export function assessGate(input: GateInput): GateAssessment {
  const visible_text = input.visibleText.slice(0, EXCERPT_CHARS);
  const signals = gateSignals(input.behaviors);
  const result = (status: GateStatus): GateAssessment => ({
    status,
    visible_text,
    behaviors: input.behaviors,
    signals,
  });
  if (input.vendorMarker) return result('vendor_challenge');
  if (!isHoldingPage(input)) return result('page_has_content');
  const gated =
    signals.includes('permission_prompt') || (signals.includes('redirect') && signals.some((s) => s !== 'redirect'));
  return result(gated ? 'evasion_gate' : 'no_gate_behavior');
}
