// What the screen returns, and the marker shape every layer's findings share.

export interface InjectionFinding {
  category: string;
  marker: string;
  flag: string;
  severity: 'high' | 'low';
  hidden?: boolean;
}

export interface ScreenResult {
  findings: InjectionFinding[];
  severity: 'none' | 'low' | 'high';
}

export const INJECTION_FLAGS = [
  'agent:injected_instructions',
  'agent:credential_lure_for_agents',
  'agent:unsafe_execution_lure',
  'agent:hidden_text',
] as const;

export const SEVERITY_RANK = { none: 0, low: 1, high: 2 } as const;

const MAX_MARKER = 160;

export function shortMarker(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  if (one.length <= MAX_MARKER) return one;
  return `${one.slice(0, 100)}…${one.slice(one.length - 50)}`;
}
