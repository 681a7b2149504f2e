import type { InjectionToken } from 'tsyringe';
import type { Target } from './engine/url/target.ts';
import type { EmailFacts } from './services/email/email-facts.ts';
import type { ScanEvidence } from './services/scan/evidence.ts';

/** Where a detector may run. A plugin lists the surfaces it understands; the pipeline runs only those. */
export type Surface = 'scan' | 'agent_action' | 'agent_content' | 'agent_tool_call' | 'email';

export interface FlagMeta {
  description: string;
  /** Set for parametrised flags such as `brand:ct_sibling_impersonation_<brand>`: the key is the prefix. */
  parametrised?: boolean;
  /** Evidence-only flags carry weight 0 and never move a score on their own. */
  evidenceOnly?: boolean;
  /** Raised by rules/composites.json from other flags, never emitted by the detector itself. */
  composite?: boolean;
  /**
   * A flag of Preflight's own surfaces beyond the spec (tool pinning, email protection): it must not be in
   * rules/spec-flags.json (the spec's flag table), and a flag that is must not be marked so (the contract test holds both).
   */
  extension?: boolean;
}

export interface DetectorMeta<Config = unknown> {
  id: string;
  version: string;
  description: string;
  surfaces: readonly Surface[];
  /** The closed set of flags this detector may emit. Emitting anything else is a contract violation. */
  flags: Readonly<Record<string, FlagMeta>>;
  configSchema?: Record<string, unknown>;
  defaultConfig?: Config;
  /** A best-effort detector that throws or runs past its budget yields no findings instead of failing the check. */
  bestEffort?: boolean;
  timeoutMs?: number;
  /**
   * Surfaces on which `detect` is a function of the context's `url`, `target`, `text` and `texts` alone (no I/O, no
   * clock, no state beyond its config and immutable deps such as the catalogs). There the pipeline may hand back
   * the output of an earlier run on the same input instead of running it again (core/engine/pipeline/output-memo.ts):
   * a repeated destination does not pay for the same lexical analysis twice. Leave a surface out when in doubt.
   */
  deterministicOn?: readonly Surface[];
}

export interface Finding {
  flag: string;
  detail?: string;
  evidence?: Record<string, unknown>;
}

/** One finding of the agent screen (the `data` of the plugin providing `agentScreen` on the agent surfaces). */
export interface AgentScreenFinding {
  category: string;
  marker: string;
  severity: 'high' | 'low';
  flag: string;
  hidden?: boolean;
  /** Which input the marker was found in (`content`, `page_text`, `prompt`, or a JSON path in tool arguments). */
  field: string;
}

/** The agent screen's `data`: the worst severity over its findings (`none` when nothing matched). */
export interface AgentScreen {
  severity: 'none' | 'low' | 'high';
  findings: AgentScreenFinding[];
}

export interface DetectorOutput {
  findings: Finding[];
  /** Lands in `detailed_results.<path>` (scanner) or in the check's own fields (agent surfaces). */
  data?: Record<string, unknown>;
}

/** What a detector sees. Fields are filled per surface; a detector reads only what it needs. */
export interface DetectionContext {
  surface: Surface;
  /** Text to screen (content check, page_text, prompt, tool arguments flattened). */
  text?: string;
  /** Labelled text parts, e.g. `{ page_text: "...", prompt: "..." }`, so findings can say where they came from. */
  texts?: Readonly<Record<string, string>>;
  url?: string;
  /** The destination parsed once (action checks, scans). */
  target?: Target;
  /** Scans: everything the sources learned about the target (DNS, RDAP, TLS, page, CT, history, host, browser). */
  evidence?: ScanEvidence;
  /** Tool calls that carry the tool's MCP definition: the definition and how it compares with the workspace pin. */
  tool?: ToolContext;
  /** POST /email/protect: the parsed message, its links' fast-check verdicts and its attachments. */
  email?: EmailFacts;
  signal: AbortSignal;
}

export interface ToolContext {
  name: string;
  server: string;
  description?: string;
  input_schema?: Record<string, unknown>;
  pin: { status: 'first_seen' | 'pinned' | 'changed'; admin_approved: boolean; changed: string[] };
}

export interface Detector {
  detect(ctx: DetectionContext): Promise<DetectorOutput> | DetectorOutput;
}

export type DepTokens<Deps> = { [K in keyof Deps]: InjectionToken<Deps[K]> };

export interface DetectorDefinition<Deps = Record<string, never>, Config = unknown> {
  meta: DetectorMeta<Config>;
  deps: DepTokens<Deps>;
  create(args: { deps: Deps; config: Config }): Detector;
}

/** Identity at runtime; gives plugin authors type inference between `deps` tokens and `create`'s arguments. */
export function defineDetector<Deps = Record<string, never>, Config = unknown>(
  def: DetectorDefinition<Deps, Config>,
): DetectorDefinition<Deps, Config> {
  return def;
}
