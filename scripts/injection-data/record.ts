// The record every source yields and the build writes, one JSON object per line (contract with the scorer).
export const CATEGORIES = [
  'instruction_override',
  'role_play_jailbreak',
  'exfiltration',
  'tool_hijack',
  'task_injection',
  'hidden_instruction',
  'system_prompt_leak',
  'obfuscation',
] as const;
export type Category = (typeof CATEGORIES)[number];

export const KINDS = ['prompt', 'content', 'html'] as const;
export type Kind = (typeof KINDS)[number];

export type Split = 'train' | 'validation' | 'test';

export interface DataRecord {
  text: string;
  label: 0 | 1;
  source: string;
  lang: string;
  kind: Kind;
  category?: Category;
  group: string;
}

/** A record with the split the build gave it. */
export type PlacedRecord = DataRecord & { split: Split };

/** Returns the reasons a value is not a valid record (empty when valid). */
export function recordProblems(value: unknown): string[] {
  const problems: string[] = [];
  if (typeof value !== 'object' || value === null) return ['not an object'];
  const r = value as Record<string, unknown>;
  if (typeof r.text !== 'string' || r.text.trim() === '') problems.push('text must be a non-empty string');
  if (r.label !== 0 && r.label !== 1) problems.push('label must be 0 or 1');
  if (typeof r.source !== 'string' || r.source === '') problems.push('source must be a non-empty string');
  if (typeof r.lang !== 'string' || !/^[a-z]{2}$/.test(r.lang)) problems.push('lang must be a two-letter code');
  if (!KINDS.includes(r.kind as Kind)) problems.push(`kind must be one of ${KINDS.join(', ')}`);
  if (typeof r.group !== 'string' || r.group === '') problems.push('group must be a non-empty string');
  if (r.category !== undefined) {
    if (!CATEGORIES.includes(r.category as Category)) problems.push(`unknown category ${String(r.category)}`);
    if (r.label !== 1) problems.push('category is only for positives');
  } else if (r.label === 1) problems.push('positives need a category');
  const allowed = new Set(['text', 'label', 'source', 'lang', 'kind', 'category', 'group']);
  for (const key of Object.keys(r)) if (!allowed.has(key)) problems.push(`unexpected field ${key}`);
  return problems;
}

/** Field order is fixed so that the same records always serialise to the same bytes. */
export function serialiseRecord(r: DataRecord): string {
  const ordered: Record<string, unknown> = {
    text: r.text,
    label: r.label,
    source: r.source,
    lang: r.lang,
    kind: r.kind,
  };
  if (r.category !== undefined) ordered.category = r.category;
  ordered.group = r.group;
  return JSON.stringify(ordered);
}
