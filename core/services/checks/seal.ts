import { inject, injectable } from 'tsyringe';
import { AppConfig } from '../../config.ts';
import {
  type DecisionContract,
  decisionSha256,
  expiryFrom,
  issueDecision,
  issueDecisionAsync,
  type UnsignedContract,
} from '../../engine/contract/decision-contract.ts';
import { Ruleset, sha256Hex } from '../../engine/rules/ruleset.ts';
import type { AuditEvent } from '../audit/audit-writer.ts';
import { auditPreview } from '../audit/redact.ts';
import { SigningKey } from '../signing/signing-keys.ts';

/** Who asked, through which door: recorded in the contract and the audit event. */
export interface CallContext {
  workspaceId: string | null;
  actor: string | null;
  requestId: string;
  /** e.g. `POST /agent/check-content`, `POST /agent/guardrail`, `mcp tools/call svc_check_content`, `cli`. */
  endpoint: string;
}

export interface Sealed {
  decision: DecisionContract;
  /** Absent when there is no workspace to file it under (in-process CLI replays). */
  audit?: AuditEvent;
}

type SealArgs = {
  surface: DecisionContract['surface'];
  verdict: DecisionContract['verdict'];
  flags: string[];
  reasons: string[];
  input: string;
  rulesetHash: string;
  ttlSeconds: number;
  now?: Date;
};

function contractFields(args: SealArgs, call: CallContext, inputSha256: string): UnsignedContract {
  const issuedAt = args.now ?? new Date();
  return {
    surface: args.surface,
    verdict: args.verdict,
    flags: args.flags,
    reasons: args.reasons,
    issued_at: issuedAt.toISOString(),
    expires_at: expiryFrom(issuedAt, args.ttlSeconds),
    ttl_seconds: args.ttlSeconds,
    request_id: call.requestId,
    actor: call.actor,
    workspace_id: call.workspaceId,
    input_sha256: inputSha256,
    ruleset_hash: args.rulesetHash,
  };
}

function auditEventOf(
  args: SealArgs,
  call: CallContext,
  inputSha256: string,
  decision: DecisionContract,
): AuditEvent | undefined {
  return call.workspaceId
    ? {
        workspace_id: call.workspaceId,
        endpoint: call.endpoint,
        surface: args.surface,
        actor: call.actor,
        request_id: call.requestId,
        decision_id: decision.id,
        outcome: args.verdict,
        flags: args.flags,
        prompt_preview: auditPreview(args.input),
        prompt_sha256: inputSha256,
        decision_sha256: decisionSha256(decision),
        ruleset_hash: args.rulesetHash,
      }
    : undefined;
}

/** Signs the verdict and prepares its audit event. The raw input only ever leaves as a hash and a redacted head. */
export function sealDecision(args: SealArgs, call: CallContext, key: SigningKey): Sealed {
  const inputSha256 = sha256Hex(args.input);
  const decision = issueDecision(contractFields(args, call, inputSha256), key);
  return { decision, audit: auditEventOf(args, call, inputSha256, decision) };
}

/** sealDecision with the signature made off the event loop (the API's path: other requests run meanwhile). */
export async function sealDecisionAsync(args: SealArgs, call: CallContext, key: SigningKey): Promise<Sealed> {
  const inputSha256 = sha256Hex(args.input);
  const decision = await issueDecisionAsync(contractFields(args, call, inputSha256), key);
  return { decision, audit: auditEventOf(args, call, inputSha256, decision) };
}

type SealerArgs = Omit<SealArgs, 'rulesetHash' | 'ttlSeconds'> & { maxTtlSeconds?: number };

/**
 * sealDecision with what every agent check shares bound in: the signing key, the ruleset hash and the configured
 * TTL ceiling. A check asks for a shorter TTL when its verdict rests on less.
 */
@injectable()
export class DecisionSealer {
  constructor(
    @inject(SigningKey) private readonly key: SigningKey,
    @inject(Ruleset) private readonly ruleset: Ruleset,
    @inject(AppConfig) private readonly config: AppConfig,
  ) {}

  seal(args: SealerArgs, call: CallContext): Sealed {
    return sealDecision(this.bound(args), call, this.key);
  }

  /** The same seal with the signature made off the event loop: what the API's checks use under load. */
  sealAsync(args: SealerArgs, call: CallContext): Promise<Sealed> {
    return sealDecisionAsync(this.bound(args), call, this.key);
  }

  private bound(args: SealerArgs): SealArgs {
    const { maxTtlSeconds, ...rest } = args;
    const ttlSeconds = Math.min(maxTtlSeconds ?? this.config.decisionTtlSeconds, this.config.decisionTtlSeconds);
    return { ...rest, rulesetHash: this.ruleset.hash, ttlSeconds };
  }
}
