// `npm run worker`: a scan worker process. Run as many as you like against one PostgreSQL; graphile-worker's
// row locks make sure no job runs twice at once, and stale recovery requeues what a killed worker left behind.
import { createPreflight } from '../app/index.ts';
import { loadConfig } from '../core/config.ts';
import { startWorker } from '../core/services/jobs/worker.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createPreflight(config);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await worker.stop();
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  const worker = await startWorker(app, { concurrency: config.workerConcurrency });
  process.stdout.write(`${JSON.stringify({ msg: 'preflight worker running', process_id: worker.processId })}\n`);
}

main().catch((err) => {
  process.stderr.write(`preflight worker: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
