import 'reflect-metadata';
import { Command, InvalidArgumentError } from 'commander';
import { createPreflight, pluginCatalog } from '../core/app.ts';
import { ContentCheck } from '../core/checks/content-check.ts';
import { loadConfig } from '../core/config.ts';
import { openDatabase } from '../core/db/database.ts';
import { loadRuleset, RulesError } from '../core/rules/ruleset.ts';
import {
  createApiKey,
  KEY_ROLES,
  type KeyRole,
  listApiKeys,
  revokeApiKey,
  updateWorkspace,
} from '../core/workspaces/api-keys.ts';
import { parseCheckContentRequest } from '../server/requests/check-content.ts';
import { runJsonl } from './jsonl.ts';

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
  .action(async (name: string, opts: { agentChecks?: boolean }) => {
    const patch = opts.agentChecks === undefined ? {} : { agent_checks_enabled: opts.agentChecks };
    if (Object.keys(patch).length === 0) throw new InvalidArgumentError('nothing to update');
    const ok = await withDatabase((db) => updateWorkspace(db.knex, name, patch));
    if (!ok) {
      process.stderr.write(`no workspace named ${name}\n`);
      process.exitCode = 1;
    } else process.stdout.write(`updated ${name}\n`);
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
  .command('migrate')
  .description('apply database migrations')
  .action(async () => {
    await withDatabase(async (db) => {
      const [, applied] = await db.knex.migrate.latest();
      process.stdout.write(`migrations up to date (${(applied as string[]).length} applied now)\n`);
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

program
  .command('check-content')
  .description('screen content in-process: request bodies on stdin, response bodies on stdout')
  .requiredOption('--jsonl', 'one JSON body per line')
  .action(async () => {
    const app = await createPreflight(loadConfig());
    const check = app.container.resolve(ContentCheck);
    let n = 0;
    try {
      await runJsonl(async (body) => {
        const input = parseCheckContentRequest(body);
        n++;
        const call = { workspaceId: null, actor: 'cli', requestId: `cli-${n}`, endpoint: 'cli check-content' };
        return (await check.check(input, call)).response;
      });
    } finally {
      await app.close();
    }
  });

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`preflight: ${err instanceof RulesError ? err.message : ((err as Error)?.message ?? err)}\n`);
  process.exit(1);
});
