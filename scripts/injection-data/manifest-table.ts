// Prints the sources table of data/injection/README.md from data/injection/sources.json (run after a build).
import { readFileSync } from 'node:fs';

interface Kept {
  bySplit: Record<string, Record<string, number>>;
  byLang: Record<string, number>;
}
const manifest = JSON.parse(readFileSync(new URL('../../data/injection/sources.json', import.meta.url), 'utf8')) as {
  sources: { id: string; repo: string | null; commit: string | null; licence: string; kept: Kept | null }[];
};

console.log(
  '| source | repository @ commit | licence | train 0/1 | validation 0/1 | test 0/1 | languages (benign/attack) |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const s of manifest.sources) {
  const cell = (split: string) => {
    const c = s.kept?.bySplit[split] ?? {};
    return `${c.label_0 ?? 0} / ${c.label_1 ?? 0}`;
  };
  const langs = new Map<string, [number, number]>();
  for (const [key, n] of Object.entries(s.kept?.byLang ?? {})) {
    const [lang, label] = key.split('_') as [string, string];
    const pair = langs.get(lang) ?? [0, 0];
    pair[label === '1' ? 1 : 0] += n;
    langs.set(lang, pair);
  }
  const langText = [...langs.entries()]
    .sort()
    .map(([l, [b, a]]) => `${l} ${b}/${a}`)
    .join(', ');
  const repo = s.repo ? `${s.repo} @ ${s.commit?.slice(0, 12)}` : '(generated here)';
  console.log(
    `| ${s.id} | ${repo} | ${s.licence} | ${cell('train')} | ${cell('validation')} | ${cell('test')} | ${langText} |`,
  );
}
