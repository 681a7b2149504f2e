import { once } from 'node:events';
import { createPreflight } from '../app/index.ts';
import { ConfigError, loadConfig } from '../core/config.ts';
import { RulesError } from '../core/engine/rules/ruleset.ts';
import { startWorker } from '../core/services/jobs/worker.ts';
import { createHttpApp } from './http-app.ts';
import { startMetricsServer } from './metrics-server.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createPreflight(config);
  // The embedded setup runs its worker in-process; PREFLIGHT_WORKER=off leaves jobs to `npm run worker` processes.
  const worker =
    config.worker === 'inprocess' ? await startWorker(app, { concurrency: config.workerConcurrency }) : undefined;
  const server = createHttpApp(app).listen(config.port, config.host);
  await once(server, 'listening');
  const metricsServer =
    config.metrics.enabled && config.metrics.port !== undefined
      ? await startMetricsServer(app, config.host, config.metrics.port)
      : undefined;
  // Handlers before the 'listening' line: whoever reads it may signal at once.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${JSON.stringify({ msg: 'stopping', signal })}\n`);
    server.close();
    server.closeAllConnections();
    metricsServer?.close();
    await worker?.stop();
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  process.stdout.write(
    `${JSON.stringify({ msg: 'preflight listening', port, database: app.db.embedded ? 'embedded' : 'DATABASE_URL', worker: config.worker })}\n`,
  );
}

main().catch((err) => {
  if (err instanceof RulesError || err instanceof ConfigError) {
    process.stderr.write(`preflight: ${err.message}\n`);
  } else {
    process.stderr.write(`preflight: failed to start: ${(err as Error)?.stack ?? String(err)}\n`);
  }
  process.exit(1);
});
