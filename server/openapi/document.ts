import { createRequire } from 'node:module';
import { errorResponses, schemas, securitySchemes } from './components.ts';
import { type Auth, OPERATIONS, type Operation } from './operations.ts';

const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

const SECURITY: Record<Auth, object[] | undefined> = {
  key: [{ ApiKey: [] }, { LegacyApiKey: [] }],
  admin: [{ ApiKey: [] }, { LegacyApiKey: [] }],
  // `{}` in a security list means "no credentials" is also accepted.
  optional: [{ ApiKey: [] }, { LegacyApiKey: [] }, {}],
  job_reader: [{ ApiKey: [] }, { LegacyApiKey: [] }, { ScanToken: [] }],
  none: [],
};

/** ajv-only keywords that are not JSON Schema 2020-12 (OpenAPI 3.1's dialect) are left out of the document. */
function forOpenApi(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forOpenApi);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === '$id' || k === '$schema' || k === 'errorMessage') continue;
    out[k] = forOpenApi(v);
  }
  return out;
}

function responseOf(ok: Operation['ok'][string]) {
  if (typeof ok !== 'string') return ok;
  return { description: 'OK', content: { 'application/json': { schema: { $ref: `#/components/schemas/${ok}` } } } };
}

function operationOf(op: Operation) {
  const pathNames = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const parameters = [
    ...pathNames.map((name) => ({
      name,
      in: 'path',
      required: true,
      description: op.pathParams?.[name] ?? name,
      schema: { type: 'string' },
    })),
    ...(op.query ?? []).map((q) => ({ ...q, in: 'query', required: false })),
    {
      name: 'X-Actor',
      in: 'header',
      required: false,
      description: 'Tags the caller in decision contracts, jobs and audit events (≤ 200 chars)',
      schema: { type: 'string', maxLength: 200 },
    },
    {
      name: 'X-Request-ID',
      in: 'header',
      required: false,
      description: 'Echoed on every response and recorded; replaced when not a tame token',
      schema: { type: 'string', maxLength: 128 },
    },
  ];
  const responses: Record<string, unknown> = {};
  for (const [status, ok] of Object.entries(op.ok)) responses[status] = responseOf(ok);
  for (const status of op.errors) responses[status] = errorResponses[status];
  const security = SECURITY[op.auth];
  return {
    operationId: `${op.method}${op.path.replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: op.summary,
    tags: [op.tag],
    parameters,
    ...(op.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: forOpenApi(op.body) } } } }
      : {}),
    responses,
    ...(security ? { security } : {}),
  };
}

let cached: object | undefined;

/** The OpenAPI 3.1 document of the running service (built once; the operations table is static). */
export function openApiDocument(): object {
  if (cached) return cached;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    paths[op.path] ??= {};
    paths[op.path]![op.method] = operationOf(op);
  }
  cached = {
    openapi: '3.1.0',
    info: {
      title: 'Preflight',
      version,
      description:
        'Pre-action safety checks for AI agents (agent guardrail) and the phishing scanner underneath them. ' +
        'Errors are JSON: {error, message, details?, request_id}.',
    },
    servers: [{ url: '/' }],
    tags: [
      { name: 'agent', description: 'Agent guardrail: content, actions, tool calls, policy, MCP' },
      { name: 'scanner', description: 'Phishing scans, jobs, evidence packs, reports' },
      { name: 'integrations', description: 'Endpoints shaped for agent runtimes' },
      { name: 'web-access', description: "People's browsers and proxies" },
      { name: 'ticket-bridge', description: 'Case-management tickets from scans and decisions' },
      { name: 'webhooks', description: 'Signed webhook endpoints and their delivery log' },
      { name: 'email', description: 'Email protection' },
      { name: 'console', description: 'The web console, its session, keys, audit events and rules' },
      { name: 'service', description: 'Health and documentation' },
    ],
    paths,
    components: { schemas, securitySchemes },
  };
  return cached;
}
