// The CPU one Ed25519 contract signature costs, measured in the bench's own process with the service's key: every
// decision pays it, so it bounds how close any signed answer can come to a bare handler on the same cores.
import { sign } from 'node:crypto';
import type { SigningKey } from '../core/services/signing/signing-keys.ts';

/** CPU µs per signature of a contract-sized message (~250 bytes), over `n` signatures in this thread. */
export function signatureCpuUs(key: SigningKey, n = 20_000): number {
  const message = Buffer.alloc(250, 0x61);
  sign(null, message, key.privateKey); // warm up
  const before = process.cpuUsage();
  for (let i = 0; i < n; i++) sign(null, message, key.privateKey);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / n;
}
