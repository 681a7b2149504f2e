// `npm run data:injection`: reads the pinned public sources from the fetch mirrors, adds the seeded synthetic sets,
// de-duplicates, splits by group and writes data/injection/build/{train,validation,test}.jsonl plus the manifest
// data/injection/sources.json, and beside them the measurement-only probe-foreign-task.{train,validation,test}.jsonl.
// Same mirrors -> byte-identical output.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MirrorMissingError } from './mirror.ts';
import { foreignTaskProbe } from './probe-foreign-task.ts';
import { type DataRecord, type PlacedRecord as Placed, recordProblems, type Split, serialiseRecord } from './record.ts';
import { hash32 } from './rng.ts';
import type { BuildContext, Source, SourceRecord } from './source.ts';
import { SOURCES } from './sources/index.ts';
import { assignByRank } from './split.ts';
import { dedupKey } from './text.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT_DIR = path.join(ROOT, 'data', 'injection', 'build');
const MANIFEST = path.join(ROOT, 'data', 'injection', 'sources.json');
const SPLITS: Split[] = ['train', 'validation', 'test'];

/** Gives every record its split and drops duplicates (first source wins; a text seen with both labels is dropped). */
export class Collector {
  readonly records: Placed[] = [];
  private readonly byKey = new Map<string, Placed>();
  private readonly conflicting = new Set<string>();
  dropped = { duplicate: 0, conflict: 0 };

  /** Adds one source's records; groups without a pinned split are cut by rank within the source. */
  addAll(source: Source, recs: readonly SourceRecord[]): void {
    const ranks = assignByRank(
      recs.filter((r) => r.split === undefined).map((r) => r.group),
      source.info.policy,
    );
    for (const r of recs) this.add(source, r.split ? r : { ...r, split: ranks.get(r.group)! });
  }

  add(source: Source, rec: SourceRecord): void {
    const problems = recordProblems(stripSplit(rec));
    if (problems.length > 0)
      throw new Error(`${source.info.id}: bad record (${problems.join('; ')}): ${rec.text.slice(0, 80)}`);
    const key = dedupKey(rec.text);
    if (this.conflicting.has(key)) {
      this.dropped.conflict++;
      return;
    }
    const seen = this.byKey.get(key);
    if (seen) {
      if (seen.label !== rec.label) {
        this.conflicting.add(key);
        this.dropped.conflict += 2;
        const at = this.records.indexOf(seen);
        if (at >= 0) this.records.splice(at, 1);
      } else this.dropped.duplicate++;
      return;
    }
    const placed: Placed = {
      ...stripSplit(rec),
      split: rec.split ?? assignByRank([rec.group], source.info.policy).get(rec.group)!,
    };
    this.byKey.set(key, placed);
    this.records.push(placed);
  }
}

function stripSplit(rec: SourceRecord): DataRecord {
  const { split: _split, ...rest } = rec;
  return rest;
}

const NOT_CARRIERS = new Set(SOURCES.filter((s) => s.notCarrier).map((s) => s.info.id));

function carrierContext(records: readonly Placed[]): BuildContext {
  const cache = new Map<string, Placed[]>();
  return {
    carriers(split, kinds = ['content', 'prompt', 'html']) {
      const key = `${split}:${kinds.join(',')}`;
      let list = cache.get(key);
      if (!list) {
        // Only real text from repositories carries planted lines, never another generated record.
        list = records.filter(
          (r) =>
            r.label === 0 &&
            r.split === split &&
            kinds.includes(r.kind) &&
            !r.source.startsWith('synthetic_') &&
            !NOT_CARRIERS.has(r.source),
        );
        cache.set(key, list);
      }
      return list;
    },
  };
}

/** Deterministic order that mixes sources (the same bytes on every run). */
function orderKey(r: DataRecord): number {
  return hash32(`${r.group}\u0000${r.text}`);
}

type Counts = Record<string, number>;
function bump(counts: Counts, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

async function main(): Promise<void> {
  const collector = new Collector();
  const firstPass = SOURCES.filter((s) => !s.needsCarriers);
  const secondPass = SOURCES.filter((s) => s.needsCarriers);
  const loaded = new Map<string, number>();
  for (const source of firstPass) {
    const recs = await source.load(carrierContext([]));
    loaded.set(source.info.id, recs.length);
    collector.addAll(source, recs);
    console.error(`loaded ${source.info.id}: ${recs.length}`);
  }
  const ctx = carrierContext(collector.records.slice());
  for (const source of secondPass) {
    const recs = await source.load(ctx);
    loaded.set(source.info.id, recs.length);
    collector.addAll(source, recs);
    console.error(`generated ${source.info.id}: ${recs.length}`);
  }

  mkdirSync(OUT_DIR, { recursive: true });
  const perSource: Record<string, { bySplit: Record<string, Counts>; byLang: Counts; byCategory: Counts }> = {};
  for (const split of SPLITS) {
    const recs = collector.records
      .filter((r) => r.split === split)
      .sort((a, b) => orderKey(a) - orderKey(b) || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
    const lines = recs.map((r) => serialiseRecord(r));
    writeFileSync(path.join(OUT_DIR, `${split}.jsonl`), lines.length ? `${lines.join('\n')}\n` : '');
    for (const r of recs) {
      const s = perSource[r.source] ?? { bySplit: {}, byLang: {}, byCategory: {} };
      perSource[r.source] = s;
      const bySplit = s.bySplit[split] ?? {};
      s.bySplit[split] = bySplit;
      bump(bySplit, `label_${r.label}`);
      bump(s.byLang, `${r.lang}_${r.label}`);
      if (r.category) bump(s.byCategory, r.category);
    }
  }

  // Measurement sets beside the build, never read by training (scripts/injection-data/probe-foreign-task.ts). The
  // train probe is the one to write structure rules from, so that the validation and test probes stay unseen.
  for (const split of ['train', 'validation', 'test'] as const) {
    const probe = foreignTaskProbe(collector.records, split).map((r) => serialiseRecord(r));
    writeFileSync(path.join(OUT_DIR, `probe-foreign-task.${split}.jsonl`), `${probe.join('\n')}\n`);
    console.error(`probe foreign-task ${split}: ${probe.length}`);
  }

  const manifest = {
    generated_by: 'npm run data:injection (scripts/injection-data/build.ts)',
    note: 'counts are after de-duplication; commits are pinned, so a rebuild from the same mirrors gives the same files',
    dropped: collector.dropped,
    sources: SOURCES.map((s) => ({
      id: s.info.id,
      repo: s.info.repo ?? null,
      commit: s.info.commit ?? null,
      licence: s.info.licence,
      files: s.info.files,
      description: s.info.description,
      split_policy: s.info.policy,
      yielded: loaded.get(s.info.id) ?? 0,
      kept: perSource[s.info.id] ?? null,
    })),
  };
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(
    `dropped: ${collector.dropped.duplicate} duplicates, ${collector.dropped.conflict} with conflicting labels`,
  );
  printSummary(collector.records);
}

function printSummary(records: readonly Placed[]): void {
  const table = (title: string, keyOf: (r: Placed) => string) => {
    const rows = new Map<string, Counts>();
    for (const r of records) {
      const row = rows.get(keyOf(r)) ?? {};
      bump(row, `${r.split}/${r.label}`);
      rows.set(keyOf(r), row);
    }
    console.log(`\n${title}\t${SPLITS.flatMap((s) => [`${s}/0`, `${s}/1`]).join('\t')}`);
    for (const [key, row] of [...rows.entries()].sort()) {
      console.log(`${key}\t${SPLITS.flatMap((s) => [row[`${s}/0`] ?? 0, row[`${s}/1`] ?? 0]).join('\t')}`);
    }
  };
  table('source', (r) => r.source);
  table('lang', (r) => r.lang);
  table('kind', (r) => r.kind);
  table('category', (r) => r.category ?? '-');
  const total: Counts = {};
  for (const r of records) bump(total, `${r.split}/${r.label}`);
  console.log(`\ntotal\t${SPLITS.flatMap((s) => [total[`${s}/0`] ?? 0, total[`${s}/1`] ?? 0]).join('\t')}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main().catch((err: unknown) => {
    if (err instanceof MirrorMissingError) {
      console.error(`data:injection: ${err.message}`);
      process.exit(2);
    }
    throw err;
  });
}
