import { startLab } from './index.ts';

/**
 * `preflight lab --sites DIR`: start the lab, print one JSON line (endpoints, connect-to mapping, CA) so scripts
 * can read it, and run until SIGINT/SIGTERM.
 */
export async function runLabCommand(sitesDir: string): Promise<void> {
  const lab = await startLab({ sitesDir });
  // Handlers first: a caller may send SIGTERM the moment it reads the line, and until a handler is installed the
  // kernel's default action (terminate at once) applies.
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  process.stdout.write(
    `${JSON.stringify({
      ...lab.endpoints,
      connect_to: lab.connectTo,
      ca_pem: lab.caPem,
      sites: lab.sites.map((site) => site.hostname),
      now: new Date(lab.now).toISOString(),
      startup_ms: Math.round(lab.startupMs),
    })}\n`,
  );
  await stopped;
  await lab.close();
}
