// A typed client for Preflight's REST API, for agents, scripts and the CLI. It speaks plain fetch (undici in
// node ≥ 18), so it runs anywhere node does and needs nothing from the service's own modules.

export type AgentDecision = 'allow' | 'approval_required' | 'block';
export type Intent =
  | 'visit'
  | 'enter_credentials'
  | 'pay'
  | 'download'
  | 'connect_tool'
  | 'sign_transaction'
  | 'share_data';
export type RiskLevel = 'low' | 'medium' | 'high' | 'critical';

/** The signed `service.decision.v1` contract every agent verdict carries (verify it with GET /agent/decision-keys). */
export interface DecisionContract {
  schema: 'service.decision.v1';
  id: string;
  surface: string;
  verdict: AgentDecision | 'warn';
  flags: string[];
  reasons: string[];
  issued_at: string;
  expires_at: string;
  ttl_seconds: number;
  request_id: string;
  actor: string | null;
  workspace_id: string | null;
  input_sha256: string;
  ruleset_hash: string;
  key_id: string;
  alg: 'Ed25519';
  signature: string;
}

export interface Finding {
  category: string;
  marker: string;
  severity: 'low' | 'high';
  flag: string;
}

export interface CheckContentRequest {
  content: string;
  url?: string;
}

export interface CheckContentResponse {
  agent_decision: AgentDecision;
  injection_detected: boolean;
  severity: 'none' | 'low' | 'high';
  score: number;
  flags: string[];
  findings: Finding[];
  reasons: string[];
  decision: DecisionContract;
}

export interface CheckActionRequest {
  url: string;
  intent?: Intent;
  depth?: 'fast' | 'deep';
  connector?: string;
  page_text?: string;
  prompt?: string;
}

export interface CheckActionResponse {
  agent_decision: AgentDecision;
  intent: Intent;
  depth: 'fast' | 'deep';
  risk_score: number;
  risk_level: RiskLevel;
  reasons: string[];
  warnings: string[];
  flags: string[];
  flag_explanations: Record<string, { description: string; detector: string; weight: number; evidence: string[] }>;
  prompt_injection: { detected: boolean; severity: 'none' | 'low' | 'high'; findings: (Finding & { field: string })[] };
  url_verdict: { domain: string; category: string; risk: RiskLevel; action: AgentDecision };
  ttl_seconds: number;
  decision: DecisionContract;
}

export interface ToolCallRequest {
  tool: string;
  arguments?: Record<string, unknown>;
  connector?: string;
  prompt?: string;
}

export type GuardrailRequest =
  | ({ kind: 'prompt' } & CheckContentRequest)
  | ({ kind: 'action' } & CheckActionRequest)
  | ({ kind: 'tool_call' } & ToolCallRequest);

export interface GuardrailResponse {
  kind: GuardrailRequest['kind'];
  agent_decision: AgentDecision;
  reasons: string[];
  flags: string[];
  decision: DecisionContract;
  [field: string]: unknown;
}

export interface ScanResult {
  scan_id: number;
  domain: string;
  score: number;
  risk_level: RiskLevel;
  flags: string[];
  score_breakdown: { applied_score: number; raw_total: number; reconciles: boolean; [field: string]: unknown };
  [field: string]: unknown;
}

export type JobStatus = 'queued' | 'running' | 'done' | 'failed' | 'dead_letter';

/** GET /scan/jobs/<id>: the summary on success, the reason on failure. */
export interface ScanJob {
  scan_id: number;
  status: JobStatus;
  result?: { domain?: string; score: number; risk_level: RiskLevel; flags: string[] };
  error?: string;
}

export interface BulkAccepted {
  jobs: { domain: string; scan_id: number; status: JobStatus; queued: boolean }[];
  errors: { input: unknown; error: string }[];
  summary: { accepted: number; rejected: number; duplicates: number; limit: number };
}

/** A non-2xx answer: the service's JSON error body, kept whole. */
export class PreflightError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId?: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'PreflightError';
  }
}

export interface PreflightClientOptions {
  /** e.g. http://127.0.0.1:8080 */
  baseUrl: string;
  /** An API key; sent as `Authorization: Api-Key …`. Optional for anonymous scans. */
  apiKey?: string;
  /** Tags the caller in decision contracts and audit events (X-Actor). */
  actor?: string;
  /** Per-request deadline; default 30 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export class PreflightClient {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: PreflightClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? fetch;
  }

  checkContent(body: CheckContentRequest): Promise<CheckContentResponse> {
    return this.request('POST', '/agent/check-content', body);
  }

  checkAction(body: CheckActionRequest): Promise<CheckActionResponse> {
    return this.request('POST', '/agent/check-action', body);
  }

  guardrail(body: GuardrailRequest): Promise<GuardrailResponse> {
    return this.request('POST', '/agent/guardrail', body);
  }

  getPolicy(): Promise<Record<string, unknown>> {
    return this.request('GET', '/agent/policy');
  }

  putPolicy(patch: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.request('PUT', '/agent/policy', patch);
  }

  scan(domain: string, opts: { force_scan?: boolean } = {}): Promise<ScanResult> {
    return this.request('POST', '/v1/scan', { domain, ...opts });
  }

  scanAsync(
    domain: string,
    opts: { force_scan?: boolean } = {},
  ): Promise<{ scan_id: number; status: 'queued'; access_token?: string }> {
    return this.request('POST', '/scan_async', { domain, ...opts });
  }

  scanBulk(domains: string[], opts: { force_scan?: boolean } = {}): Promise<BulkAccepted> {
    return this.request('POST', '/scan/bulk', { domains, ...opts });
  }

  job(jobId: number | string): Promise<ScanJob> {
    return this.request('GET', `/scan/jobs/${encodeURIComponent(String(jobId))}`);
  }

  jobs(
    query: { status?: string; domain?: string; force_scan?: boolean; limit?: number } = {},
  ): Promise<Record<string, unknown>> {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
    const qs = params.size > 0 ? `?${params}` : '';
    return this.request('GET', `/scan/jobs${qs}`);
  }

  evidencePack(id: string): Promise<Record<string, unknown>> {
    return this.request('GET', `/evidencepacks/${encodeURIComponent(id)}`);
  }

  /** Any route, for what the typed methods do not cover yet. */
  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.options.apiKey) headers.Authorization = `Api-Key ${this.options.apiKey}`;
    if (this.options.actor) headers['X-Actor'] = this.options.actor;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await this.fetchImpl(`${this.baseUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      throw new PreflightError(res.status, 'invalid_response', `Expected JSON from ${method} ${path}`);
    }
    if (!res.ok) {
      const err = (parsed ?? {}) as { error?: string; message?: string; request_id?: string; details?: unknown };
      throw new PreflightError(
        res.status,
        err.error ?? 'http_error',
        err.message ?? `${method} ${path} answered ${res.status}`,
        err.request_id ?? res.headers.get('x-request-id') ?? undefined,
        err.details,
      );
    }
    return parsed as T;
  }
}
