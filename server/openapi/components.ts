// Response bodies and shared pieces of the OpenAPI document. Request bodies are NOT here: they are the very ajv
// schemas the routes validate with (see operations.ts). Response schemas list the fields the README and the spec
// promise and stay open (additional fields allowed), so a new field is not a breaking change for clients.

const open = (properties: Record<string, unknown>, required: string[] = [], description?: string) => ({
  type: 'object',
  ...(description ? { description } : {}),
  properties,
  ...(required.length ? { required } : {}),
});

const str = (description?: string) => ({ type: 'string', ...(description ? { description } : {}) });
const int = (description?: string) => ({ type: 'integer', ...(description ? { description } : {}) });
const strings = (description?: string) => ({
  type: 'array',
  items: { type: 'string' },
  ...(description ? { description } : {}),
});
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const agentDecision = { type: 'string', enum: ['allow', 'approval_required', 'block'] };
const riskLevel = { type: 'string', enum: ['low', 'medium', 'high', 'critical'] };
const severity = { type: 'string', enum: ['none', 'low', 'high'] };
const jobStatus = { type: 'string', enum: ['queued', 'running', 'done', 'failed', 'dead_letter'] };

export const schemas: Record<string, unknown> = {
  Error: open(
    {
      error: str(
        'a stable code: invalid_request, invalid_json, unauthorized, forbidden, not_found, payload_too_large, unsupported_media_type, rate_limited, quota_exceeded, internal_error…',
      ),
      message: str('what to fix, for a person'),
      details: { description: 'validation details (capped), when there are any' },
      request_id: str('echoes X-Request-ID, or the one the service made'),
    },
    ['error', 'message', 'request_id'],
  ),
  DecisionContract: open(
    {
      schema: { const: 'service.decision.v1' },
      id: str('decision id (uuid)'),
      surface: str('agent_content, agent_action, agent_tool_call, web_access'),
      verdict: { enum: ['allow', 'approval_required', 'block', 'warn'] },
      flags: strings(),
      reasons: strings(),
      issued_at: { type: 'string', format: 'date-time' },
      expires_at: { type: 'string', format: 'date-time' },
      ttl_seconds: int(),
      request_id: str(),
      actor: { type: ['string', 'null'] },
      workspace_id: { type: ['string', 'null'] },
      input_sha256: str('sha256 of the canonical JSON of the normalised request'),
      ruleset_hash: str('sha256 of the canonical merged rules/ in force'),
      key_id: str('GET /agent/decision-keys names it'),
      alg: { const: 'Ed25519' },
      signature: str('Ed25519 over the canonical contract without the signature'),
    },
    ['schema', 'id', 'surface', 'verdict', 'ruleset_hash', 'key_id', 'alg', 'signature'],
    'The signed decision contract (README "Decision contract").',
  ),
  Finding: open(
    {
      category: str(),
      marker: str('the span that matched or scored'),
      severity: { enum: ['low', 'high'] },
      flag: str(),
    },
    ['category', 'marker', 'severity', 'flag'],
  ),
  PromptInjection: open({
    detected: { type: 'boolean' },
    severity,
    findings: {
      type: 'array',
      items: { allOf: [ref('Finding'), open({ field: str('page_text, prompt, or a JSON path of a tool argument') })] },
    },
  }),
  CheckContentResponse: open(
    {
      agent_decision: agentDecision,
      injection_detected: { type: 'boolean' },
      severity,
      score: int('0–100'),
      flags: strings(),
      findings: { type: 'array', items: ref('Finding') },
      reasons: strings('the winning decision rule first'),
      decision: ref('DecisionContract'),
    },
    ['agent_decision', 'injection_detected', 'severity', 'score', 'flags', 'findings', 'reasons', 'decision'],
  ),
  CheckActionResponse: open(
    {
      agent_decision: agentDecision,
      intent: str(),
      depth: { enum: ['fast', 'deep'] },
      risk_score: int(),
      risk_level: riskLevel,
      reasons: strings(),
      warnings: strings(),
      flags: strings(),
      flag_explanations: {
        type: 'object',
        additionalProperties: open({
          description: str(),
          detector: str(),
          weight: { type: 'number' },
          evidence: strings(),
        }),
      },
      prompt_injection: ref('PromptInjection'),
      url_verdict: open({ domain: str(), category: str(), risk: riskLevel, action: agentDecision }),
      ttl_seconds: int(),
      decision: ref('DecisionContract'),
    },
    ['agent_decision', 'intent', 'depth', 'risk_score', 'risk_level', 'reasons', 'flags', 'url_verdict', 'decision'],
  ),
  ToolCallResponse: open(
    {
      agent_decision: agentDecision,
      tool: str(),
      tool_policy: open({ mode: str(), decision: str(), reason: str(), matched: { type: ['string', 'null'] } }),
      connector: open({ name: { type: ['string', 'null'] }, status: str() }),
      high_impact: open({ matched: { type: 'boolean' }, pattern: { type: ['string', 'null'] } }),
      risk_score: int(),
      risk_level: riskLevel,
      reasons: strings(),
      warnings: strings(),
      flags: strings(),
      prompt_injection: ref('PromptInjection'),
      ttl_seconds: int(),
      decision: ref('DecisionContract'),
    },
    ['agent_decision', 'tool', 'reasons', 'flags', 'decision'],
  ),
  GuardrailResponse: {
    description: "The selected check's response plus `kind`.",
    allOf: [
      open({ kind: { enum: ['prompt', 'tool_call', 'action'] } }, ['kind']),
      { oneOf: [ref('CheckContentResponse'), ref('ToolCallResponse'), ref('CheckActionResponse')] },
    ],
  },
  PolicyView: open(
    {
      flags: { type: 'object', additionalProperties: { type: 'boolean' } },
      tool_policy: open({ mode: { enum: ['open', 'allowlist'] }, allowed_tools: strings(), denied_tools: strings() }),
      guardrail_enabled: { type: 'boolean' },
      connectors: { type: ['array', 'null'], items: { type: 'string' } },
      high_impact_tools: strings(),
      ruleset_hash: str(),
    },
    ['flags', 'tool_policy', 'ruleset_hash'],
  ),
  JsonRpcResponse: open(
    {
      jsonrpc: { const: '2.0' },
      id: { type: ['string', 'integer', 'null'] },
      result: {},
      error: open({ code: int(), message: str() }),
    },
    ['jsonrpc'],
    'JSON-RPC 2.0 (MCP): initialize, ping, tools/list, tools/call',
  ),
  ScanResult: open(
    {
      scan_id: int(),
      domain: str(),
      target_url: str(),
      score: int(),
      phishing_score: int(),
      risk_level: riskLevel,
      flags: strings(),
      score_breakdown: open(
        {
          categories: { type: 'object', additionalProperties: { type: 'number' } },
          raw_total: { type: 'number' },
          adjustments: {
            type: 'array',
            items: open({ reason: str(), detail: str(), from: { type: 'number' }, to: { type: 'number' } }),
          },
          applied_score: { type: 'number' },
          capped: { type: 'boolean' },
          reconciles: { type: 'boolean' },
        },
        ['raw_total', 'adjustments', 'applied_score', 'capped', 'reconciles'],
      ),
      campaign_tagging_degraded: { type: 'boolean' },
      campaign_tagging: { type: 'object' },
      detailed_results: { type: 'object' },
      tabs: { type: 'object' },
      ruleset_hash: str(),
      scanned_at: { type: 'string', format: 'date-time' },
      cached: { type: 'boolean' },
      evidence: open(
        { degraded: { type: 'boolean' }, reasons: strings() },
        ['degraded', 'reasons'],
        'degraded: DNS, HTTP and TLS all failed, so the score rests on no evidence (a low risk level is not clean)',
      ),
    },
    ['domain', 'score', 'risk_level', 'flags', 'score_breakdown'],
  ),
  ScanAccepted: open(
    {
      scan_id: int(),
      status: { const: 'queued' },
      access_token: str('anonymous jobs only: send as X-Scan-Token to read the job'),
    },
    ['scan_id', 'status'],
  ),
  Job: open(
    {
      scan_id: int(),
      domain: str('list view only'),
      status: jobStatus,
      force_scan: { type: 'boolean', description: 'list view only' },
      queued_at: { type: 'string', format: 'date-time', description: 'list view only' },
      run_duration_ms: { type: ['integer', 'null'], description: 'list view only' },
      result: open(
        { domain: str('single view only'), score: int(), risk_level: riskLevel, flags: strings() },
        ['score', 'risk_level', 'flags'],
        'on success: the scan summary (the list view omits domain)',
      ),
      error: str('reason string of a failed job, in place of result'),
    },
    ['scan_id', 'status'],
  ),
  JobList: open(
    {
      jobs: { type: 'array', items: ref('Job') },
      meta: open({ limit: int(), counts: { type: 'object', additionalProperties: { type: 'integer' } } }),
    },
    ['jobs', 'meta'],
  ),
  BulkAccepted: open(
    {
      jobs: {
        type: 'array',
        items: open({ domain: str(), scan_id: int(), status: jobStatus, queued: { type: 'boolean' } }),
      },
      errors: { type: 'array', items: open({ input: {}, error: str() }) },
      summary: open({ accepted: int(), rejected: int(), duplicates: int(), limit: int() }),
    },
    ['jobs', 'errors', 'summary'],
  ),
  EvidencePack: {
    type: 'object',
    description: 'Canonical JSON of the evidence pack (sha256 in the X-Evidence-SHA256 header and the scan).',
  },
  DecisionKeys: open({ keys: { type: 'array', items: open({ key_id: str(), algorithm: str(), public_key: str() }) } }, [
    'keys',
  ]),
  Health: open({ status: str() }, ['status']),
  ClaudeCodePreToolUseAnswer: open(
    {
      hookSpecificOutput: open(
        {
          hookEventName: { const: 'PreToolUse' },
          permissionDecision: { enum: ['allow', 'ask', 'deny'] },
          permissionDecisionReason: str(),
        },
        ['hookEventName', 'permissionDecision', 'permissionDecisionReason'],
      ),
    },
    ['hookSpecificOutput'],
  ),
  UsageReport: open(
    {
      workspace: str(),
      plan: str(),
      period: open({ from: str(), to: str(), days: int() }),
      limits: open({ scan_quota_daily: int(), force_scan_quota_daily: { type: ['integer', 'null'] } }),
      today: open({ scan_quota_used: int(), scan_quota_remaining: int() }),
      totals: open({
        checks: { type: 'object', additionalProperties: { type: 'integer' } },
        scans: int(),
        quota: { type: 'object' },
      }),
      days: {
        type: 'array',
        items: open({
          day: str(),
          checks: { type: 'object', additionalProperties: { type: 'integer' } },
          outcomes: { type: 'object', additionalProperties: { type: 'integer' } },
          scans: int(),
          quota: open({ scan: int(), force_scan: int() }),
        }),
      },
    },
    ['workspace', 'plan', 'period', 'limits', 'today', 'totals', 'days'],
  ),
  Ticket: open({ ticket_id: str(), status: str(), severity: str(), title: str() }, ['ticket_id', 'status']),
  ConsoleSession: open(
    {
      workspace: str(),
      key_prefix: str(),
      csrf_token: str('send as X-CSRF-Token on requests that change something'),
      expires_at: str(),
    },
    ['workspace', 'csrf_token'],
  ),
  KeyList: open(
    {
      keys: {
        type: 'array',
        items: open({
          id: str(),
          prefix: str(),
          role: str(),
          label: { type: ['string', 'null'] },
          created_at: str(),
          revoked_at: { type: ['string', 'null'] },
        }),
      },
    },
    ['keys'],
  ),
  CreatedKey: open(
    { id: str(), key: str('the secret: shown here once, stored as sha256 only'), prefix: str(), role: str() },
    ['id', 'key', 'prefix', 'role'],
  ),
  AuditEventList: open(
    {
      events: {
        type: 'array',
        items: open({
          id: int(),
          created_at: str(),
          endpoint: str(),
          surface: str(),
          outcome: str(),
          actor: { type: ['string', 'null'] },
          request_id: str(),
          decision_id: str(),
          flags: strings(),
          prompt_preview: str('redacted'),
          ruleset_hash: str(),
        }),
      },
    },
    ['events'],
  ),
  RulesView: open(
    {
      ruleset_hash: str(),
      rules: { type: 'object' },
      flags: {
        type: 'object',
        additionalProperties: open({ description: str(), detector: str(), weight: { type: ['number', 'null'] } }),
      },
    },
    ['ruleset_hash', 'rules', 'flags'],
  ),
  OpenObject: { type: 'object' },
};

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ref('Error') } },
});

/** Every error status the service answers, with the README's meaning. */
export const errorResponses: Record<string, ReturnType<typeof errorResponse>> = {
  '400': errorResponse('A field is missing or has the wrong type, the body is not JSON, or a parameter is unsupported'),
  '401': errorResponse('Missing, invalid or revoked key'),
  '402': errorResponse('Force scans are disabled on the plan'),
  '403': errorResponse("The key's role may not use the route, or the key has no workspace"),
  '404': errorResponse('Unknown route or resource in this workspace, or the feature is off'),
  '405': errorResponse('Method not allowed'),
  '409': errorResponse('The resource is not ready (e.g. a scan job still running)'),
  '410': errorResponse('The scan was compacted past the evidence window'),
  '413': errorResponse('Body over the limit'),
  '415': errorResponse('A POST body that is not application/json'),
  '429': errorResponse('Rate limit or quota reached (Retry-After)'),
  '500': errorResponse('Unexpected failure; no verdict was produced'),
  '501': errorResponse('Not implemented'),
  '503': errorResponse('A dependency (database, browser) is unavailable'),
};

export const securitySchemes = {
  ApiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'Authorization: Api-Key <key> (preferred)',
  },
  LegacyApiKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY', description: 'X-API-KEY: <key> (legacy)' },
  ScanToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Scan-Token',
    description: 'Reads an anonymous job: the access_token its creation returned',
  },
};
