// The trainer's inputs and outputs: records, options and their defaults, thresholds, the per-source table; the seeded
// PRNG and the text the scorer sees for a record.
import { normalize } from '../normalize.ts';

export interface TrainRecord {
  text: string;
  label: 0 | 1;
  source: string;
  category?: string;
  lang?: string;
  kind?: string;
}

export interface TrainOptions {
  bits?: number;
  catBits?: number;
  seed?: number;
  epochs?: number;
  /** L2 strengths to try; the best on validation is kept. */
  lambdas?: number[];
  eta0?: number;
  /** Windows sampled per benign record. */
  windowsPerBenign?: number;
  /** Rounds of hard-negative mining (after each round's epochs, the best-scoring windows of benign records join). */
  rounds?: number;
  /** Highest-scoring windows kept per benign record and mining round, if above `hardMinP`. */
  hardPerBenign?: number;
  hardMinP?: number;
  /** Records per (source, label) group counted in full. */
  cap?: number;
  /** Largest share of benign records of any one source the approval threshold may flag. */
  targetFp?: number;
  /** Same for the block threshold. */
  targetBlockFp?: number;
  /** Training text cut (characters of normalised text). */
  maxChars?: number;
  /** Extra header fields (e.g. a digest of the data) recorded in the file. */
  provenance?: Record<string, unknown>;
  log?: (line: string) => void;
}

export const DEFAULTS = {
  bits: 20,
  catBits: 16,
  seed: 1,
  epochs: 2,
  rounds: 6,
  hardPerBenign: 8,
  hardMinP: 0.05,
  lambdas: [0],
  eta0: 0.1,
  windowsPerBenign: 4,
  cap: 2000,
  targetFp: 0.005,
  targetBlockFp: 0.001,
  maxChars: 4000,
};

export interface Thresholds {
  /** Probability at or above which the screen asks for approval. */
  approval: number;
  /** Probability at or above which the screen blocks. */
  block: number;
}

export interface SourceRow {
  source: string;
  n: number;
  positives: number;
  benign: number;
  /** Positives at or above the approval threshold. */
  recall: number;
  /** Benign records at or above the approval / block threshold. */
  flagged: number;
  blocked: number;
}

export interface TrainResult {
  model: Buffer;
  thresholds: Thresholds;
  validation: SourceRow[];
  /** Probability of each validation record under the kept model (best window over its segments). */
  validationProbs: number[];
  chosen: { lambda: number; epoch: number; meanRecall: number };
}

/** mulberry32: a small seeded PRNG, enough for shuffling. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The text the scorer sees for a record: its normalised segments (visible, hidden, decoded), one per line. */
export function segmentsOf(text: string): string[] {
  return normalize(text).segments.map((s) => s.text);
}

/** The options with every default filled in. */
export type Options = typeof DEFAULTS;
