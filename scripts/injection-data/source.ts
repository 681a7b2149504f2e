// What a data source declares (for the manifest) and how it yields records.
import type { DataRecord, PlacedRecord, Split } from './record.ts';
import type { SplitPolicy } from './split.ts';

export interface SourceInfo {
  /** Value of `source` in the records. */
  id: string;
  /** owner/name of the public repository, or undefined for generators in this repo. */
  repo?: string;
  commit?: string;
  licence: string;
  /** Files (or globs) read from the mirror, for the manifest. */
  files: string[];
  description: string;
  policy: SplitPolicy;
}

/** A record before the build assigns its split; `split` lets a source pin single groups (e.g. upstream test files). */
export type SourceRecord = DataRecord & { split?: Split };

export interface BuildContext {
  /** Benign records already assigned to a split, usable as carriers for indirect injections. */
  carriers(split: Split, kinds?: DataRecord['kind'][]): readonly PlacedRecord[];
}

export interface Source {
  info: SourceInfo;
  /** Generators that need carriers run after every repository source. */
  needsCarriers?: boolean;
  /**
   * Benign records of this source never carry generated injections. Set on sources added after the generators: a
   * new carrier would re-draw every generated record (the pool is sampled by position), not just add some.
   */
  notCarrier?: boolean;
  load(ctx: BuildContext): SourceRecord[] | Promise<SourceRecord[]>;
}
