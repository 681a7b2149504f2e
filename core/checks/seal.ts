import { inject, injectable } from 'tsyringe';
import type { AuditEvent } from '../audit/audit-writer.ts';
import { auditPreview } from '../audit/redact.ts';
import { AppConfig } from '../config.ts';
import { type DecisionContract, decisionSha256, expiryFrom, issueDecision } from '../contract/decision-contract.ts';
import { SigningKey } from '../contract/signing-keys.ts';
import { Ruleset, sha256Hex, type Verdict } from '../rules/ruleset.ts';

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

/** Signs the verdict and prepares its audit event. The raw input only ever leaves as a hash and a redacted head. */
export function sealDecision(
  args: {
    surface: DecisionContract['surface'];
    verdict: Verdict;
    flags: string[];
    reasons: string[];
    input: string;
    rulesetHash: string;
    ttlSeconds: number;
    now?: Date;
  },
  call: CallContext,
  key: SigningKey,
): Sealed {
  const issuedAt = args.now ?? new Date();
  const inputSha256 = sha256Hex(args.input);
  const decision = issueDecision(
    {
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
    },
    key,
  );
  const audit: AuditEvent | undefined = call.workspaceId
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
  return { decision, audit };
}

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

  seal(
    args: Omit<Parameters<typeof sealDecision>[0], 'rulesetHash' | 'ttlSeconds'> & { maxTtlSeconds?: number },
    call: CallContext,
  ): Sealed {
    const { maxTtlSeconds, ...rest } = args;
    const ttlSeconds = Math.min(maxTtlSeconds ?? this.config.decisionTtlSeconds, this.config.decisionTtlSeconds);
    return sealDecision({ ...rest, rulesetHash: this.ruleset.hash, ttlSeconds }, call, this.key);
  }
}
