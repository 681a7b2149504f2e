// The phases of a request, by the source file a stack frame runs in: shared by bench/perf-phases.ts (on-CPU
// samples from Linux perf) and bench/profile-phases.ts (V8 .cpuprofile).

export type Rule = [RegExp, string | null];

/** JavaScript frames, by source URL (first match wins; null = transparent: counts for its caller). */
export const JS_RULES: Rule[] = [
  // Shared helpers (canonical JSON, sha256) count for whoever called them: the seal, the rules memo.
  [/\/core\/rules\/ruleset\.ts/, null],
  [/\/plugins\/prompt-injection\//, 'screen (plugins/prompt-injection)'],
  [/\/plugins\//, 'other detectors (plugins)'],
  [/\/core\/pipeline\//, 'detector harness (core/engine/pipeline)'],
  [/\/core\/decisions\/|json-rules-engine|jsonpath|hash-it|eventemitter2/, 'rules engine'],
  [/\/core\/audit\/redact\.ts/, 'audit preview (redact)'],
  [/\/core\/checks\/seal\.ts|\/core\/contract\//, 'seal: canonical JSON, hashes, sign'],
  [/\/core\/audit\//, 'audit insert'],
  [/\/core\/events\/|\/core\/tickets\/|\/core\/webhooks\//, 'event publication / subscribers'],
  [/\/core\/checks\//, 'check assembly (core/services/checks)'],
  [/\/core\/agent-policy\//, 'workspace policy'],
  [/\/core\/reputation\//, 'reputation'],
  [/\/core\/url\/|\/tldts/, 'URL parsing'],
  [/\/server\/middleware\/auth\.ts|\/core\/workspaces\//, 'auth'],
  [/\/server\/requests\/|\/node_modules\/ajv/, 'validation'],
  [
    /\/server\/middleware\/json-body\.ts|bodyparser|co-body|raw-body|inflation|iconv-lite|\/core\/limits\//,
    'HTTP body',
  ],
  [/\/server\/middleware\/observe\.ts|\/core\/observability\/|prom-client|pino/, 'metrics / logging'],
  [/\/server\//, 'Koa app middleware + routes (server/)'],
  [/\/node_modules\/koa-compose/, null],
  [
    /\/node_modules\/(koa|@koa\/router|path-to-regexp|cookies|accepts|type-is|content-type|statuses|on-finished|ee-first|http-errors|vary|mime-types|mime-db|negotiator|media-typer|fresh|only|delegates|encodeurl|escape-html|content-disposition|destroy)\//,
    'Koa / router / response',
  ],
  [/\/node_modules\/(knex|pg|pg-protocol|pg-pool|pg-types|tarn|postgres-)/, null],
  [/\/node_modules\/tsyringe/, 'DI container'],
  [/\/core\//, 'core (other)'],
];

/** Where a stack with nothing but transparent frames goes, by its leaf-most match. */
export const FALLBACK: [RegExp, string][] = [
  [/\/node_modules\/(knex|pg|pg-protocol|pg-pool|pg-types|tarn|postgres-)/, 'DB driver (pg replies, pool)'],
  [
    /node:(_http|http|net|stream|internal\/(http|streams|stream_base|net|js_stream))|_http_|llhttp|node::http/i,
    'node HTTP / net',
  ],
  [
    /node:internal\/process\/task_queues|RunMicrotasks|node:timers|uv__run_timers/,
    'node internals (microtasks, timers)',
  ],
];
