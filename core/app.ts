import 'reflect-metadata';
import { type DependencyContainer, container as rootContainer } from 'tsyringe';
import { PLUGINS } from '../plugins/index.ts';
import { AuditWriter } from './audit/audit-writer.ts';
import { ContentCheck } from './checks/content-check.ts';
import { AppConfig } from './config.ts';
import { loadOrCreateSigningKey, SigningKey } from './contract/signing-keys.ts';
import { type Database, openDatabase } from './db/database.ts';
import { Knex } from './db/knex-token.ts';
import { DecisionEngines } from './decisions/decision-engines.ts';
import { DetectorSet } from './pipeline/run-detectors.ts';
import { PluginCatalog } from './plugins/registry.ts';
import { loadRuleset, Ruleset } from './rules/ruleset.ts';

/** One running Preflight: its own DI container, database pool, rules and detectors. */
export interface Preflight {
  container: DependencyContainer;
  config: AppConfig;
  db: Database;
  close(): Promise<void>;
}

export function pluginCatalog(): PluginCatalog {
  return new PluginCatalog(PLUGINS);
}

/**
 * Builds the app. Rules are loaded and validated before the database is touched, so a bad rules file stops the
 * boot early with the file, pointer and reason.
 */
export async function createPreflight(config: AppConfig, opts: { db?: Database } = {}): Promise<Preflight> {
  const catalog = pluginCatalog();
  const ruleset = loadRuleset(config.rulesDir, catalog);
  const db = opts.db ?? (await openDatabase(config));
  const signingKey = await loadOrCreateSigningKey(db.knex);

  // A child container per app, never the global registry: two apps in one process (tests) stay apart.
  const container = rootContainer.createChildContainer();
  container.registerInstance(AppConfig, config);
  container.registerInstance(Knex, db.knex);
  container.registerInstance(PluginCatalog, catalog);
  container.registerInstance(Ruleset, ruleset);
  container.registerInstance(SigningKey, signingKey);
  container.registerInstance(DecisionEngines, new DecisionEngines(ruleset));
  container.registerInstance(AuditWriter, new AuditWriter(db.knex));
  container.registerInstance(DetectorSet, new DetectorSet(catalog, container));
  container.registerSingleton(ContentCheck);

  return {
    container,
    config,
    db,
    close: () => (opts.db ? Promise.resolve() : db.close()),
  };
}
