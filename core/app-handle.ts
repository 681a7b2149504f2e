import type { DependencyContainer } from 'tsyringe';
import type { AppConfig } from './config.ts';
import type { SourceSet } from './evidence/sources/index.ts';
import type { Database } from './platform/db/database.ts';

/**
 * What core needs of a running app (its container, config, database and evidence sources). The composition that
 * builds one lives in app/, above core: core never imports it.
 */
export interface AppHandle {
  container: DependencyContainer;
  config: AppConfig;
  db: Database;
  sources: SourceSet;
  close(): Promise<void>;
}
