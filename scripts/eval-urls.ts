// The fast action check over URL-only corpora at intent `visit`: the share flagged (not `allow`) per source.
// Usage: node --import tsx --import reflect-metadata scripts/eval-urls.ts [urls.jsonl]
// Uses the project's database (DATABASE_URL or the embedded one) for the known-good list and feeds.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createPreflight } from '../app/index.ts';
import { loadConfig, ROOT_DIR } from '../core/config.ts';
import { DEFAULT_POLICY } from '../core/services/agent-policy/workspace-policy.ts';
import { AgentChecks } from '../core/services/checks/agent-checks.ts';

const file = process.argv[2] ?? path.join(ROOT_DIR, '..', 'shared', 'eval', 'phishing', 'urls.jsonl');
const app = await createPreflight(loadConfig());
const checks = app.container.resolve(AgentChecks);
const call = { workspaceId: null, actor: 'eval', requestId: 'eval', endpoint: 'eval' };

const cases: { url: string; source: string }[] = readFileSync(file, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const knownGood: string[] = await app.db.knex('known_good_domains').pluck('domain');
for (const domain of knownGood) cases.push({ url: `https://${domain}/`, source: 'known_good_list' });

const stats = new Map<string, { flagged: number; n: number; flags: Map<string, number> }>();
for (const c of cases) {
  const r = await checks.action({ url: c.url, intent: 'visit', depth: 'fast' }, call, DEFAULT_POLICY);
  const s = stats.get(c.source) ?? { flagged: 0, n: 0, flags: new Map() };
  s.n++;
  if (r.agent_decision !== 'allow') s.flagged++;
  for (const f of r.flags) s.flags.set(f, (s.flags.get(f) ?? 0) + 1);
  stats.set(c.source, s);
}
console.log(`corpus: ${file} + the known-good list (${knownGood.length} domains), intent visit\n`);
console.log('| source | flagged (not allow) | n | share | flags fired (count) |');
console.log('|---|---|---|---|---|');
for (const [source, s] of [...stats].sort()) {
  const flags = [...s.flags]
    .sort((a, b) => b[1] - a[1])
    .map(([f, n]) => `${f} ${n}`)
    .join(', ');
  console.log(`| ${source} | ${s.flagged} | ${s.n} | ${((100 * s.flagged) / s.n).toFixed(1)}% | ${flags} |`);
}
await app.close();
