import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { parseCronItems, run, runOnce, type TaskList } from 'graphile-worker';
import type { Preflight } from '../app.ts';
import { quietLogger } from '../db/database.ts';
import { Knex } from '../db/knex-token.ts';
import { ScanService } from '../scan/scan-service.ts';
import { compactOldScans, recoverStaleJobs } from './maintenance.ts';
import { scanTask } from './scan-task.ts';

const HEARTBEAT_MS = 5_000;
const RECOVERY_MS = 15_000;

export interface WorkerOptions {
  concurrency?: number;
  /** Open each target in Chromium too (when installed). */
  browser?: boolean;
}

/** This process's registration in worker_processes, refreshed on a timer; stale-job recovery reads it. */
async function registerProcess(app: Preflight) {
  const knex = app.container.resolve(Knex);
  const id = randomUUID();
  await knex('worker_processes').insert({ id, pid: process.pid, hostname: os.hostname() });
  const beat = setInterval(() => {
    knex('worker_processes')
      .where({ id })
      .update({ last_seen: knex.fn.now() })
      .catch(() => {});
  }, HEARTBEAT_MS);
  beat.unref();
  return {
    id,
    async unregister() {
      clearInterval(beat);
      await knex('worker_processes').where({ id }).delete();
    },
  };
}

export function scanTaskList(app: Preflight, processId: string, options: WorkerOptions = {}): TaskList {
  const knex = app.container.resolve(Knex);
  return {
    scan: scanTask({ knex, scans: app.container.resolve(ScanService), processId, browser: options.browser ?? true }),
    retention: async () => {
      await compactOldScans(knex, app.config.evidenceWindowHours);
    },
    stale_recovery: async () => {
      await recoverStaleJobs(knex);
    },
  };
}

/** A long-running worker: graphile-worker's runner, the heartbeat, stale recovery, and the hourly retention cron. */
export async function startWorker(app: Preflight, options: WorkerOptions = {}) {
  const registration = await registerProcess(app);
  const knex = app.container.resolve(Knex);
  const recovery = setInterval(() => {
    recoverStaleJobs(knex).catch(() => {});
  }, RECOVERY_MS);
  recovery.unref();
  const runner = await run({
    connectionString: app.db.url,
    concurrency: options.concurrency ?? 2,
    noHandleSignals: true,
    pollInterval: 1_000,
    logger: quietLogger,
    taskList: scanTaskList(app, registration.id, options),
    parsedCronItems: parseCronItems([{ task: 'retention', match: '17 * * * *', identifier: 'hourly_retention' }]),
  });
  return {
    processId: registration.id,
    async stop() {
      clearInterval(recovery);
      await runner.stop();
      await registration.unregister();
    },
  };
}

/** Runs every job that is due now, then returns: how tests and one-shot operators drive the queue. */
export async function runDueJobs(app: Preflight, options: WorkerOptions = {}): Promise<void> {
  const registration = await registerProcess(app);
  try {
    await runOnce({
      connectionString: app.db.url,
      noHandleSignals: true,
      logger: quietLogger,
      taskList: scanTaskList(app, registration.id, options),
    });
  } finally {
    await registration.unregister();
  }
}
