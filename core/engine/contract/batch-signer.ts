import { type KeyObject, sign } from 'node:crypto';
import { Worker } from 'node:worker_threads';

// The worker is plain CommonJS given as source, so it needs no TypeScript loader: it signs each batch it is sent,
// in order, with the key it was sent first, and answers with the signatures (base64url) in the same order.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { sign } = require('node:crypto');
let key;
parentPort.on('message', (m) => {
  if (m.key) { key = m.key; return; }
  const signatures = new Array(m.batch.length);
  for (let i = 0; i < m.batch.length; i++) signatures[i] = sign(null, Buffer.from(m.batch[i]), key).toString('base64url');
  parentPort.postMessage({ id: m.id, signatures });
});
`;

/** Worker losses after which a signer stays on the main thread for good. */
const MAX_WORKER_LOSSES = 3;

interface Pending {
  data: string;
  resolve: (signature: string) => void;
  reject: (err: unknown) => void;
}

/**
 * Ed25519 signatures made off the event loop, one hand-off per event-loop turn instead of one per signature.
 *
 * Signing on libuv's pool (crypto.sign with a callback) cost the main thread about as much as a quarter of the
 * signature itself per call (job set-up, waking a pool thread, being preempted by it, the completion callback) and
 * the process a context switch per signature. Here every signature asked for during one turn goes to one worker
 * thread in one message after that turn (setImmediate, as the audit writer batches), and comes back in one.
 * The signature is the same function of the same bytes with the same key: only where it is computed changes.
 *
 * If the worker fails, whatever it held is signed on the main thread instead (never lost, never unsigned), and the
 * next batch starts a new worker, up to MAX_WORKER_LOSSES losses; after that this signer stays on the main thread.
 * The worker is unref'd while idle, so it never keeps a process alive.
 */
export class BatchSigner {
  private worker?: Worker;
  private queue: Pending[] = [];
  private scheduled = false;
  private readonly inFlight = new Map<number, Pending[]>();
  private nextId = 0;
  private closed = false;
  /** Workers lost other than by close(). */
  private losses = 0;
  /** Batches and signatures sent to the worker since start. */
  readonly stats = { batches: 0, signatures: 0, fallbacks: 0 };

  constructor(private readonly key: KeyObject) {}

  sign(data: string): Promise<string> {
    return new Promise((resolve, reject) => {
      this.queue.push({ data, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    let worker: Worker | undefined;
    try {
      worker = this.closed ? undefined : (this.worker ?? this.start());
    } catch {
      worker = undefined;
    }
    if (!worker) {
      this.signHere(batch);
      return;
    }
    const id = this.nextId++;
    this.inFlight.set(id, batch);
    if (this.inFlight.size === 1) worker.ref();
    this.stats.batches++;
    this.stats.signatures += batch.length;
    worker.postMessage({ id, batch: batch.map((p) => p.data) });
  }

  private start(): Worker | undefined {
    // A worker that keeps dying (it cannot start, or runs out of memory) would otherwise cost a thread start on every
    // event-loop turn of the hot path: after a few losses the signatures stay on this thread.
    if (this.losses >= MAX_WORKER_LOSSES) return undefined;
    const worker = new Worker(WORKER_SOURCE, { eval: true, name: 'preflight-signer' });
    worker.on('message', (m: { id: number; signatures: string[] }) => {
      const batch = this.inFlight.get(m.id);
      if (!batch) return;
      this.inFlight.delete(m.id);
      // Once closing, the worker stays ref'd until its 'exit': terminate() resolves on that event, and an unref'd
      // worker lets the event loop end before it comes (seen as a close() that never settled).
      if (this.inFlight.size === 0 && !this.closed) worker.unref();
      for (let i = 0; i < batch.length; i++) batch[i]!.resolve(m.signatures[i]!);
    });
    const lost = () => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      if (!this.closed) this.losses++;
      const held = [...this.inFlight.values()].flat();
      this.inFlight.clear();
      this.signHere(held);
    };
    worker.on('error', lost);
    worker.on('exit', lost);
    // Listeners and unref first: a worker whose key cannot be posted is terminated, not left holding the process.
    worker.unref();
    try {
      worker.postMessage({ key: this.key });
    } catch (err) {
      void worker.terminate();
      throw err;
    }
    this.worker = worker;
    return worker;
  }

  /** The fallback: the same signatures, made on this thread. */
  private signHere(batch: Pending[]): void {
    if (batch.length > 0) this.stats.fallbacks++;
    for (const p of batch) {
      try {
        p.resolve(sign(null, Buffer.from(p.data), this.key).toString('base64url'));
      } catch (err) {
        p.reject(err);
      }
    }
  }

  /** Stops the worker; whatever it still held, and anything asked for later, is signed on this thread. */
  async close(): Promise<void> {
    this.closed = true;
    this.worker?.ref();
    await this.worker?.terminate(); // its 'exit' hands what it held to signHere
  }
}
