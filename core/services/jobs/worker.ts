import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import os from 'node:os';
import { parseCronItems, run, runOnce, type TaskList } from 'graphile-worker';
import type { AppHandle } from '../../app-handle.ts';
import { feedsConfigPath, loadFeedsConfig } from '../../evidence/reputation/feed-config.ts';
import { syncFeeds } from '../../evidence/reputation/feed-sync.ts';
import { ReputationService } from '../../evidence/reputation/reputation-service.ts';
import { quietLogger } from '../../platform/db/database.ts';
import { Knex } from '../../platform/db/knex-token.ts';
import { EventBus } from '../../platform/events/event-bus.ts';
import { ScanService } from '../scan/scan-service.ts';
import { WEBHOOK_TASK, WebhookService } from '../webhooks/webhook-service.ts';
import { purgePastAnonymousQuota } from '../workspaces/quotas.ts';
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
async function registerProcess(app: AppHandle) {
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

export function scanTaskList(app: AppHandle, processId: string, options: WorkerOptions = {}): TaskList {
  const knex = app.container.resolve(Knex);
  return {
    scan: scanTask({
      knex,
      scans: app.container.resolve(ScanService),
      processId,
      browser: options.browser ?? true,
      events: app.container.resolve(EventBus),
    }),
    [WEBHOOK_TASK]: app.container.resolve(WebhookService).task(),
    retention: async () => {
      await compactOldScans(knex, app.config.evidenceWindowHours);
      await purgePastAnonymousQuota(knex);
    },
    stale_recovery: async () => {
      await recoverStaleJobs(knex);
    },
    // Feed errors are recorded per feed in feed_sync_status; the job itself only fails on a bad config file.
    feeds_sync: async () => {
      await syncFeeds(loadFeedsConfig(feedsConfigPath()), {
        knex,
        dispatcher: app.sources.dispatchers.feeds,
        onChanged: () => app.container.resolve(ReputationService).invalidate(),
      });
    },
  };
}

/**
 * The worker's cron table (graphile-worker crontab items): hourly retention, and `feeds sync` every 15 minutes
 * (each feed is pulled when its own interval has passed; one queue, so two pulls never overlap).
 */
export const CRON_ITEMS = [
  { task: 'retention', match: '17 * * * *', identifier: 'hourly_retention' },
  { task: 'feeds_sync', match: '*/15 * * * *', identifier: 'feeds_sync', options: { queueName: 'feeds_sync' } },
];

/** A long-running worker: graphile-worker's runner, the heartbeat, stale recovery, and the hourly retention cron. */
export async function startWorker(app: AppHandle, options: WorkerOptions = {}) {
  // A bad feeds config stops the worker's boot here, with the file, pointer and reason.
  loadFeedsConfig(feedsConfigPath());
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
    parsedCronItems: parseCronItems(CRON_ITEMS),
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
export async function runDueJobs(app: AppHandle, options: WorkerOptions = {}): Promise<void> {
  const registration = await registerProcess(app);
  const events = new EventEmitter();
  let poolId: string | undefined;
  events.on('pool:create', ({ workerPool }: { workerPool: { id: string } }) => {
    poolId = workerPool.id;
  });
  try {
    await runOnce({
      connectionString: app.db.url,
      noHandleSignals: true,
      logger: quietLogger,
      events,
      taskList: scanTaskList(app, registration.id, options),
    });
    if (poolId) await untilReleased(app, poolId);
  } finally {
    await registration.unregister();
  }
}

/**
 * graphile-worker records a failed attempt (unlock, next run_at) without awaiting it, so runOnce can resolve while
 * the pool still holds the job. Whoever acts next on the queue (a retry forced due, a status read) must see the
 * attempt's bookkeeping, so wait until no job is locked by this pool.
 */
async function untilReleased(app: AppHandle, poolId: string): Promise<void> {
  const knex = app.container.resolve(Knex);
  for (let i = 0; i < 500; i++) {
    const held = await knex('graphile_worker._private_jobs').where({ locked_by: poolId }).first('id');
    if (!held) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}
