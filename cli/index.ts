// Over 400 lines on purpose: the commander definition of all 23 stable CLI commands (DESIGN §9), each a few lines
// of options delegating to its own module, kept in one file so `preflight --help` and this file read the same.
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { createPreflight, pluginCatalog } from '../app/index.ts';
import { loadConfig } from '../core/config.ts';
import { loadRuleset, RulesError } from '../core/engine/rules/ruleset.ts';
import { parseTarget } from '../core/engine/url/target.ts';
import {
  FEED_FORMATS,
  type FeedFormat,
  importFeedEntries,
  importKnownGood,
  parseFeed,
} from '../core/evidence/reputation/feed-import.ts';
import { openDatabase } from '../core/platform/db/database.ts';
import {
  DEFAULT_POLICY,
  type PolicyPatch,
  policyPatchSchema,
  readPolicy,
  updatePolicy,
} from '../core/services/agent-policy/workspace-policy.ts';
import { AgentChecks } from '../core/services/checks/agent-checks.ts';
import { ScanService } from '../core/services/scan/scan-service.ts';
import { ToolPinStore } from '../core/services/tool-pins/tool-pin-store.ts';
import { MAX_USAGE_DAYS, usageReport } from '../core/services/usage/usage-report.ts';
import {
  createApiKey,
  KEY_ROLES,
  type KeyRole,
  listApiKeys,
  revokeApiKey,
  updateWorkspace,
} from '../core/services/workspaces/api-keys.ts';
import { runLabCommand } from '../lab/cli.ts';
import { parseCheckActionRequest } from '../server/requests/check-action.ts';
import { parseCheckContentRequest } from '../server/requests/check-content.ts';
import { parseGuardrailRequest } from '../server/requests/guardrail.ts';
import { scanTargetOf } from '../server/requests/scan.ts';
import { compileBody } from '../server/requests/validation.ts';
import { runBulk } from './bulk.ts';
import { registerFeedCommands } from './feeds.ts';
import { runJsonl } from './jsonl.ts';
import { registerMcpCommand } from './mcp-stdio.ts';
import { formatReplay, REPLAY_DIMENSIONS, type ReplayDimension, runReplay } from './replay.ts';
import { registerScanCorpus } from './scan-corpus.ts';
import { formatUsage } from './usage.ts';

const parsePolicyPatch = compileBody<PolicyPatch>(policyPatchSchema);

const program = new Command('preflight').description('Preflight: pre-action safety checks for AI agents');

function onOff(value: string): boolean {
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new InvalidArgumentError('use on or off');
}

function role(value: string): KeyRole {
  if (!(KEY_ROLES as readonly string[]).includes(value)) throw new InvalidArgumentError('use admin or agent');
  return value as KeyRole;
}

/** Runs `fn` with the project's database (the running embedded instance when there is one). */
async function withDatabase<T>(fn: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>): Promise<T> {
  const db = await openDatabase(loadConfig(), { poolMax: 2 });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

const keys = program.command('keys').description('workspace API keys');
keys
  .command('create')
  .requiredOption('--workspace <name>', 'workspace name (created if needed)')
  .option('--role <role>', 'admin or agent', role, 'agent' as KeyRole)
  .option('--label <label>', 'a note to recognise the key by')
  .action(async (opts: { workspace: string; role: KeyRole; label?: string }) => {
    const created = await withDatabase((db) => createApiKey(db.knex, opts));
    process.stdout.write(
      `Created ${created.role} key ${created.prefix} for workspace ${created.workspace}. It is shown once:\n${created.key}\n`,
    );
  });
keys
  .command('list')
  .option('--workspace <name>')
  .action(async (opts: { workspace?: string }) => {
    const rows = await withDatabase((db) => listApiKeys(db.knex, opts.workspace));
    for (const r of rows) {
      process.stdout.write(
        `${JSON.stringify({ ...r, created_at: r.created_at?.toISOString?.() ?? r.created_at, revoked_at: r.revoked_at?.toISOString?.() ?? null })}\n`,
      );
    }
  });
keys
  .command('revoke')
  .argument('<id-or-prefix>', 'key id or its display prefix (pf_...)')
  .action(async (idOrPrefix: string) => {
    const n = await withDatabase((db) => revokeApiKey(db.knex, idOrPrefix));
    if (n === 0) {
      process.stderr.write(`no active key matches ${idOrPrefix}\n`);
      process.exitCode = 1;
    } else process.stdout.write(`revoked ${n} key(s)\n`);
  });

program
  .command('workspaces')
  .description('workspace settings')
  .command('update')
  .argument('<name>')
  .option('--agent-checks <on|off>', 'turn the /agent/* endpoints on or off', onOff)
  .option('--plan <plan>', 'plan from rules/plans.json (quotas and rate limits)')
  .option('--campaign-tagging <on|off>', 'merge autonomous campaign flags into scores (off: shadow mode)', onOff)
  .action(async (name: string, opts: { agentChecks?: boolean; plan?: string; campaignTagging?: boolean }) => {
    if (opts.plan !== undefined) {
      const { plans } = loadRuleset(loadConfig().rulesDir, pluginCatalog());
      if (!plans.plans[opts.plan]) {
        throw new InvalidArgumentError(`unknown plan ${opts.plan} (known: ${Object.keys(plans.plans).join(', ')})`);
      }
    }
    const patch = {
      ...(opts.agentChecks === undefined ? {} : { agent_checks_enabled: opts.agentChecks }),
      ...(opts.plan === undefined ? {} : { plan: opts.plan }),
      ...(opts.campaignTagging === undefined ? {} : { campaign_tagging_enabled: opts.campaignTagging }),
    };
    if (Object.keys(patch).length === 0) throw new InvalidArgumentError('nothing to update');
    const ok = await withDatabase((db) => updateWorkspace(db.knex, name, patch));
    if (!ok) {
      process.stderr.write(`no workspace named ${name}\n`);
      process.exitCode = 1;
    } else process.stdout.write(`updated ${name}\n`);
  });

program
  .command('usage')
  .description("a workspace's checks per surface, scans and quota per UTC day (what GET /usage answers)")
  .argument('<workspace>')
  .option('--days <n>', `days back from today, 1 to ${MAX_USAGE_DAYS}`, (v) => {
    const n = Number(v);
    if (!/^[1-9][0-9]*$/.test(v) || n > MAX_USAGE_DAYS) throw new InvalidArgumentError(`1 to ${MAX_USAGE_DAYS}`);
    return n;
  })
  .option('--json', 'print the JSON report', false)
  .action(async (name: string, opts: { days?: number; json: boolean }) => {
    const { plans } = loadRuleset(loadConfig().rulesDir, pluginCatalog());
    const report = await withDatabase(async (db) => {
      const ws = await db.knex('workspaces').where({ name }).first<{ id: string; name: string; plan: string }>();
      return ws ? usageReport(db.knex, plans, ws, { days: opts.days ?? 7 }) : undefined;
    });
    if (!report) {
      process.stderr.write(`no workspace named ${name}\n`);
      process.exitCode = 1;
      return;
    }
    process.stdout.write(opts.json ? `${JSON.stringify(report)}\n` : formatUsage(report));
  });

program
  .command('audit')
  .description('guardrail audit events')
  .command('list')
  .requiredOption('--workspace <name>')
  .option('--limit <n>', 'newest first, at most n', (v) => Number.parseInt(v, 10), 50)
  .action(async (opts: { workspace: string; limit: number }) => {
    const rows = await withDatabase((db) =>
      db
        .knex('audit_events as a')
        .join('workspaces as w', 'w.id', 'a.workspace_id')
        .where('w.name', opts.workspace)
        .orderBy('a.id', 'desc')
        .limit(opts.limit)
        .select('a.*'),
    );
    for (const r of rows) process.stdout.write(`${JSON.stringify({ ...r, id: Number(r.id) })}\n`);
  });

program
  .command('scan')
  .description('scan one domain or URL in-process and print the scan result JSON')
  .argument('<target>', 'domain or URL')
  .option('--lab <sites_dir>', 'scan against a lab built from this sites folder instead of the internet')
  .option('--deep', 'also open the target in Chromium (screenshot, redirect kinds, page behaviours)')
  .action(async (input: string, opts: { lab?: string; deep?: boolean }) => {
    const target = scanTargetOf(input);
    const config = { ...loadConfig(), ...(opts.lab ? { labSitesDir: path.resolve(opts.lab) } : {}) };
    const app = await createPreflight(config);
    try {
      const result = await app.container
        .resolve(ScanService)
        .scan(
          target,
          { force_scan: true, browser: Boolean(opts.deep), unmetered: true },
          { workspaceId: null, campaignTaggingEnabled: false, actor: 'cli', requestId: `cli-scan-${Date.now()}` },
        );
      process.stdout.write(`${JSON.stringify(result)}\n`);
    } finally {
      await app.close();
    }
  });

registerScanCorpus(program);

program
  .command('bulk')
  .description('submit a list of domains to a running service and follow the jobs to a results table')
  .argument('<file>', 'one domain or URL per line')
  .option('--url <base_url>', 'service base URL', process.env.PREFLIGHT_URL ?? 'http://127.0.0.1:8080')
  .option('--key <api_key>', 'API key (default PREFLIGHT_API_KEY; none = anonymous)', process.env.PREFLIGHT_API_KEY)
  .option('--force', 'force fresh scans (needs a plan that allows them)', false)
  .option('--timeout <seconds>', 'stop following after this long', (v) => Number.parseInt(v, 10), 600)
  .option('--batch <n>', "domains per request (the service's BULK_SCAN_LIMIT)", (v) => Number.parseInt(v, 10), 50)
  .action(async (file: string, opts: { url: string; key?: string; force: boolean; timeout: number; batch: number }) => {
    process.exitCode = await runBulk(file, {
      url: opts.url.replace(/\/$/, ''),
      key: opts.key,
      force: opts.force,
      timeoutSeconds: opts.timeout,
      batch: opts.batch,
    });
  });

program
  .command('lab')
  .description('run the lab (an offline internet on loopback) until stopped; prints its endpoints as one JSON line')
  .requiredOption('--sites <dir>', 'site folders (DESIGN.md §7 format)')
  .action(async (opts: { sites: string }) => {
    await runLabCommand(path.resolve(opts.sites));
    process.exit(0);
  });

program
  .command('migrate')
  .description('apply database migrations')
  .action(async () => {
    // Opening the database migrates it; what that open applied is the answer.
    await withDatabase(async (db) => {
      process.stdout.write(`migrations up to date (${db.applied.length} applied now)\n`);
    });
  });

program
  .command('lint-rules')
  .description('validate rules/ (and rules/local/) against the schemas and the plugins')
  .option('--rules <dir>', 'rules folder', loadConfig().rulesDir)
  .action((opts: { rules: string }) => {
    const ruleset = loadRuleset(opts.rules, pluginCatalog());
    process.stdout.write(`rules ok: ${opts.rules} (ruleset_hash ${ruleset.hash})\n`);
  });

/**
 * The in-process replay commands: one request body per stdin line, the REST response body per stdout line, same
 * order; no server and no audit (there is no workspace). `--workspace` applies that workspace's tool policy.
 */
function replayCommand(name: 'check-content' | 'check-action' | 'guardrail', description: string) {
  program
    .command(name)
    .description(description)
    .requiredOption('--jsonl', 'one JSON body per line on stdin')
    .option('--workspace <name>', "use this workspace's guardrail policy (default: the built-in defaults)")
    .action(async (opts: { workspace?: string }) => {
      const app = await createPreflight(loadConfig());
      const checks = app.container.resolve(AgentChecks);
      let policy = DEFAULT_POLICY;
      if (opts.workspace) {
        const ws = await app.db.knex('workspaces').where({ name: opts.workspace }).first('id');
        if (!ws) throw new Error(`no workspace named ${opts.workspace}`);
        policy = await readPolicy(app.db.knex, ws.id);
      }
      let n = 0;
      try {
        await runJsonl(async (body) => {
          n++;
          const call = { workspaceId: null, actor: 'cli', requestId: `cli-${n}`, endpoint: `cli ${name}` };
          if (name === 'check-content') return checks.content(parseCheckContentRequest(body), call);
          if (name === 'check-action') return checks.action(parseCheckActionRequest(body), call, policy);
          return checks.guardrail(parseGuardrailRequest(body), call, policy);
        });
      } finally {
        await app.close();
      }
    });
}
replayCommand('check-content', 'screen content in-process (POST /agent/check-content bodies)');
replayCommand('check-action', 'check actions in-process (POST /agent/check-action bodies)');
replayCommand('guardrail', 'unified guardrail in-process (POST /agent/guardrail bodies)');

function dimensions(value: string, previous: ReplayDimension[] = []): ReplayDimension[] {
  const asked = value.split(',').map((v) => v.trim());
  for (const d of asked) {
    if (!(REPLAY_DIMENSIONS as readonly string[]).includes(d)) {
      throw new InvalidArgumentError(`use ${REPLAY_DIMENSIONS.join(' or ')}`);
    }
  }
  return [...new Set([...previous, ...(asked as ReplayDimension[])])];
}

program
  .command('replay')
  .description(
    'verdicts of a labelled JSONL corpus under a ruleset: text records ({text,label,source}) through the content ' +
      'screen, URL records ({url,label,source}) through the fast check-action (intent visit); per-source table and ' +
      'confusion matrix',
  )
  .argument('<corpus>', 'JSONL file, one {text|url, label, source, lang?, kind?} per line')
  .option('--rules <dir>', 'rules folder to judge under (default PREFLIGHT_RULES_DIR or rules/)')
  .option('--json', 'print one JSON object instead of tables', false)
  .option('--by <dims>', `extra breakdowns: ${REPLAY_DIMENSIONS.join(', ')} (comma-separated or repeated)`, dimensions)
  .option('--verdicts <file>', 'also write one JSON line per record: {line, source, label, verdict, flags, findings}')
  .action(
    async (corpus: string, opts: { rules?: string; json: boolean; by?: ReplayDimension[]; verdicts?: string }) => {
      const report = await runReplay(path.resolve(corpus), {
        ...(opts.rules ? { rulesDir: path.resolve(opts.rules) } : {}),
        ...(opts.verdicts ? { verdictsFile: path.resolve(opts.verdicts) } : {}),
        json: opts.json,
        by: opts.by ?? [],
      });
      process.stdout.write(opts.json ? `${JSON.stringify(report)}\n` : formatReplay(report));
      if (report.records === 0) process.exitCode = 1;
    },
  );

registerMcpCommand(program);

const feeds = program.command('feeds').description('threat feeds and the known-good list');
registerFeedCommands(feeds);
feeds
  .command('import')
  .argument('<file>', 'feed file')
  .option('--format <format>', `one of ${FEED_FORMATS.join(', ')}`, 'plain')
  .option('--source <name>', 'feed name recorded with each entry (default: the file name)')
  .option('--category <category>', 'category for entries that carry none', 'phishing')
  .option('--known-good', 'add the hosts to the known-good list instead of the threat feed')
  .action(async (file: string, opts: { format: string; source?: string; category: string; knownGood?: boolean }) => {
    if (!(FEED_FORMATS as readonly string[]).includes(opts.format)) {
      throw new InvalidArgumentError(`--format must be one of ${FEED_FORMATS.join(', ')}`);
    }
    const source = opts.source ?? path.basename(file);
    const parsed = parseFeed(readFileSync(file, 'utf8'), opts.format as FeedFormat, opts.category);
    await withDatabase(async (db) => {
      if (opts.knownGood) {
        const domains = parsed.entries.map((e) => parseTarget(e.host).registrableDomain).filter((d) => d !== undefined);
        const added = await importKnownGood(db.knex, domains, source);
        process.stdout.write(`${JSON.stringify({ known_good_added: added, rejected: parsed.rejected.length })}\n`);
      } else {
        const { inserted, updated } = await importFeedEntries(db.knex, parsed.entries, source);
        process.stdout.write(`${JSON.stringify({ inserted, updated, rejected: parsed.rejected.length })}\n`);
      }
    });
    for (const r of parsed.rejected.slice(0, 20)) process.stderr.write(`line ${r.line}: ${r.reason}\n`);
  });

const policyCommand = program.command('policy').description('workspace guardrail policy');
policyCommand
  .command('show')
  .requiredOption('--workspace <name>')
  .action(async (opts: { workspace: string }) => {
    const policy = await withDatabase(async (db) => readPolicy(db.knex, await workspaceId(db.knex, opts.workspace)));
    process.stdout.write(`${JSON.stringify(policy, null, 2)}\n`);
  });
const list = (v: string) =>
  v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
policyCommand
  .command('set')
  .requiredOption('--workspace <name>')
  .option('--mode <mode>', 'tool policy mode: open or allowlist')
  .option('--allow <tools>', 'comma-separated allowlist (names or * patterns)', list)
  .option('--deny <tools>', 'comma-separated denylist (names or * patterns)', list)
  .option('--connectors <names>', 'comma-separated sanctioned connectors; "none" turns governance off', (v: string) =>
    v === 'none' ? null : list(v),
  )
  .option('--high-impact <tools>', 'comma-separated high-impact tools; "default" restores the defaults', (v: string) =>
    v === 'default' ? null : list(v),
  )
  .action(
    async (opts: {
      workspace: string;
      mode?: string;
      allow?: string[];
      deny?: string[];
      connectors?: string[] | null;
      highImpact?: string[] | null;
    }) => {
      const toolPolicy = {
        ...(opts.mode !== undefined ? { mode: opts.mode } : {}),
        ...(opts.allow !== undefined ? { allowed_tools: opts.allow } : {}),
        ...(opts.deny !== undefined ? { denied_tools: opts.deny } : {}),
      };
      const patch = parsePolicyPatch({
        ...(Object.keys(toolPolicy).length ? { tool_policy: toolPolicy } : {}),
        ...(opts.connectors !== undefined ? { connectors: opts.connectors } : {}),
        ...(opts.highImpact !== undefined ? { high_impact_tools: opts.highImpact } : {}),
      });
      const next = await withDatabase(async (db) =>
        updatePolicy(db.knex, await workspaceId(db.knex, opts.workspace), patch),
      );
      process.stdout.write(`${JSON.stringify(next, null, 2)}\n`);
    },
  );

policyCommand
  .command('tools')
  .description('MCP tool pins of a workspace (hashes, approvals, pending changes)')
  .requiredOption('--workspace <name>')
  .action(async (opts: { workspace: string }) => {
    const pins = await withDatabase(async (db) =>
      new ToolPinStore(db.knex).list(await workspaceId(db.knex, opts.workspace)),
    );
    for (const pin of pins) process.stdout.write(`${JSON.stringify(pin)}\n`);
  });
policyCommand
  .command('approve-tool')
  .description('approve the newest definition seen of a pinned MCP tool (as PUT /agent/policy approve_tools)')
  .requiredOption('--workspace <name>')
  .requiredOption('--tool <name>')
  .option('--server <name>', 'the MCP server / connector the tool was pinned under', '')
  .option('--description-sha256 <hex>', 'refuse unless the newest description has this hash')
  .option('--input-schema-sha256 <hex>', 'refuse unless the newest input schema has this hash')
  .action(
    async (opts: {
      workspace: string;
      tool: string;
      server: string;
      descriptionSha256?: string;
      inputSchemaSha256?: string;
    }) => {
      const pin = await withDatabase(async (db) => {
        const store = new ToolPinStore(db.knex);
        const ws = await workspaceId(db.knex, opts.workspace);
        const ref = {
          tool: opts.tool,
          server: opts.server,
          ...(opts.descriptionSha256 ? { description_sha256: opts.descriptionSha256 } : {}),
          ...(opts.inputSchemaSha256 ? { input_schema_sha256: opts.inputSchemaSha256 } : {}),
        };
        await store.approve(ws, ref, `admin:cli (${os.userInfo().username})`);
        return (await store.list(ws)).find((p) => p.tool === opts.tool && p.server === opts.server);
      });
      process.stdout.write(`${JSON.stringify(pin)}\n`);
    },
  );

async function workspaceId(knex: import('knex').Knex, name: string): Promise<string> {
  const ws = await knex('workspaces').where({ name }).first('id');
  if (!ws) throw new Error(`no workspace named ${name}`);
  return ws.id;
}

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`preflight: ${err instanceof RulesError ? err.message : ((err as Error)?.message ?? err)}\n`);
  process.exit(1);
});
