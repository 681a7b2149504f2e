/**
 * Phrase families of tool poisoning: a tool definition that tells the model to hide things from the user, to read
 * secrets it was not asked for, to wrap orders in pseudo-system tags, or to change how other tools behave. Each
 * pattern is linear (bounded gaps, no nested quantifiers) and runs on at most MAX_TEXT characters.
 */
const MAX_TEXT = 20_000;

const CUES: { category: string; pattern: RegExp }[] = [
  {
    category: 'conceal_from_user',
    pattern:
      /\b(?:do not|don't|never|without)\s+(?:tell|telling|mention|mentioning|inform|informing|reveal|revealing|show|showing|notify|notifying|alert|alerting)\b[^.\n]{0,40}?\buser\b/i,
  },
  {
    category: 'pseudo_system_tag',
    pattern: /<\s*\/?\s*(?:important|system|instructions?|secret|hidden|admin)\s*>/i,
  },
  {
    category: 'secret_file_read',
    pattern:
      /\b(?:read|open|cat|load|include|attach|pass|send|upload|copy)\b[^\n]{0,80}?(?:~\/\.ssh|id_rsa|id_ed25519|~\/\.env\b|\.aws\/credentials|\.netrc|\/etc\/passwd|\.kube\/config|mcp\.json)/i,
  },
  {
    category: 'tool_shadowing',
    pattern:
      /\b(?:when|whenever|before|after)\s+(?:using|calling|invoking|running)\s+(?:any|every|all|another|other)\s+(?:other\s+)?tools?\b/i,
  },
  {
    category: 'coerced_argument',
    pattern: /\botherwise\s+(?:the\s+|this\s+)?tool\s+(?:will\s+not|won't|cannot|can't|will\s+fail)/i,
  },
];

export function toolPoisoningCues(text: string): { category: string; marker: string }[] {
  const head = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  const out: { category: string; marker: string }[] = [];
  for (const { category, pattern } of CUES) {
    const m = pattern.exec(head);
    if (m) out.push({ category, marker: m[0].slice(0, 120) });
  }
  return out;
}
