import type { Verdict } from '../../engine/rules/ruleset.ts';
import { normaliseName } from '../../engine/text/normalise.ts';
import { firstMatch } from './glob.ts';
import type { ToolPolicyMode, WorkspacePolicy } from './workspace-policy.ts';

export type ToolPolicyReason = 'tool_denylisted' | 'tool_not_allowlisted' | 'tool_allowlisted' | 'open_mode';

/** The `tool_policy` block of a tool_call response. `matched` is the list entry that matched, or null. */
export interface ToolPolicyOutcome {
  mode: ToolPolicyMode;
  decision: Verdict;
  reason: ToolPolicyReason;
  matched: string | null;
}

/** The spec's tool-call rules 1-3: denylist always blocks; allowlist mode needs a listing; open permits. */
export function evaluateToolPolicy(tool: string, policy: WorkspacePolicy['tool_policy']): ToolPolicyOutcome {
  const denied = firstMatch(policy.denied_tools, tool);
  if (denied !== undefined) return { mode: policy.mode, decision: 'block', reason: 'tool_denylisted', matched: denied };
  if (policy.mode === 'allowlist') {
    const allowed = firstMatch(policy.allowed_tools, tool);
    return allowed === undefined
      ? { mode: 'allowlist', decision: 'approval_required', reason: 'tool_not_allowlisted', matched: null }
      : { mode: 'allowlist', decision: 'allow', reason: 'tool_allowlisted', matched: allowed };
  }
  return { mode: 'open', decision: 'allow', reason: 'open_mode', matched: null };
}

export type ConnectorStatus = 'none' | 'sanctioned' | 'unsanctioned' | 'ungoverned';

/**
 * The connector a call goes through: the explicit `connector`, else the server part of an MCP-style tool name
 * (`github.create_issue`, `github/create_issue`, `mcp__github__create_issue`).
 */
export function connectorOf(rawTool: string | undefined, connector: string | undefined): string | undefined {
  if (connector && normaliseName(connector) !== '') return connector;
  // The server part is read from the normalised name: `github\u200b.create_issue` goes through `github`.
  const tool = rawTool === undefined ? undefined : normaliseName(rawTool);
  if (!tool) return undefined;
  const mcp = /^mcp__([^_]+(?:_[^_]+)*?)__/.exec(tool);
  if (mcp) return mcp[1];
  const sep = tool.search(/[./:]/);
  return sep > 0 ? tool.slice(0, sep) : undefined;
}

export function connectorStatus(connector: string | undefined, sanctioned: string[] | null): ConnectorStatus {
  if (!connector) return 'none';
  if (sanctioned === null) return 'ungoverned';
  return firstMatch(sanctioned, connector) !== undefined ? 'sanctioned' : 'unsanctioned';
}

export function highImpactMatch(tool: string, list: readonly string[]): string | undefined {
  return firstMatch(list, tool);
}
