import pg from 'pg';

/**
 * One dedicated connection that LISTENs on one or more channels for as long as the app runs (one connection per
 * process, whatever the number of caches that depend on it). It reconnects with backoff when
 * the connection drops; `onReset` runs whenever notifications may have been missed (on every disconnect and again
 * once listening resumes), so whoever caches on the strength of these notifications can flush.
 */
export class ChangeListener {
  private client?: pg.Client;
  private closed = false;
  private retryMs = 100;
  private timer?: NodeJS.Timeout;
  /** True only while LISTEN is active: a cache may serve entries only then. */
  listening = false;

  constructor(
    private readonly url: string,
    /** Channel → what to do with each of its payloads. */
    private readonly channels: Readonly<Record<string, (payload: string) => void>>,
    private readonly onReset: () => void,
    private readonly log: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
  ) {}

  /** Resolves once listening (or after the first failed attempt; retries continue in the background). */
  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url, application_name: 'preflight-listener' });
    this.client = client;
    client.on('notification', (n) => {
      if (Object.hasOwn(this.channels, n.channel)) this.channels[n.channel]!(n.payload ?? '');
    });
    const lost = (why: string) => {
      if (this.client !== client) return;
      this.client = undefined;
      this.listening = false;
      this.onReset();
      client.removeAllListeners('error');
      client.on('error', () => {});
      void client.end().catch(() => {});
      if (this.closed) return;
      this.log(
        `preflight: ${Object.keys(this.channels).join(', ')} listener lost (${why}); reconnecting in ${this.retryMs} ms`,
      );
      this.timer = setTimeout(() => void this.connect(), this.retryMs);
      this.timer.unref();
      this.retryMs = Math.min(this.retryMs * 2, 5_000);
    };
    client.on('error', (err) => lost(err.message));
    client.on('end', () => lost('connection ended'));
    try {
      await client.connect();
      for (const channel of Object.keys(this.channels)) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      if (this.client !== client) return;
      // Anything cached before this point may have missed a notification while we were away.
      this.onReset();
      this.listening = true;
      this.retryMs = 100;
    } catch (err) {
      lost((err as Error).message);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    this.listening = false;
    this.onReset();
    await client?.end().catch(() => {});
  }
}
