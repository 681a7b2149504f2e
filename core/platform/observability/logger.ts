import { type Logger, pino } from 'pino';

/** JSON logs on stdout (pino), each line carrying the request id where there is one. */
export function createLogger(level = process.env.PREFLIGHT_LOG_LEVEL ?? 'info'): Logger {
  return pino({ level, base: { service: 'preflight' } }, pino.destination({ sync: false }));
}
