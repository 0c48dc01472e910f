import { hostname } from 'node:os';
import { pino, type DestinationStream, type Logger } from 'pino';
import pinoPretty from 'pino-pretty';

/** Paths that may hold a secret anywhere in a log record; pino replaces their values. */
const REDACT = [
  'password',
  '*.password',
  'secretKey',
  '*.secretKey',
  'clientSecret',
  '*.clientSecret',
  'otp',
  '*.otp',
  'token',
  '*.token',
  'refreshToken',
  '*.refreshToken',
  'authorization',
  '*.authorization',
  'cookie',
  '*.cookie',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'privateKey',
  '*.privateKey',
];

/** What kind of process writes a line: instances, workers and subgraph services share one log collector. */
export type ProcessRole = 'platform' | 'worker' | 'subgraph' | 'cli' | 'test';

export interface LoggerOptions {
  level?: string;
  /** `auto`: readable lines on a terminal, JSON otherwise */
  format?: 'auto' | 'json' | 'pretty';
  role?: ProcessRole;
  instance?: string;
  /** where lines go (tests capture them); standard output by default */
  destination?: DestinationStream;
}

/** This process's name in logs and metrics: PLATFORM_INSTANCE_ID, else host name and process id. */
export function instanceId(env: NodeJS.ProcessEnv = process.env): string {
  return env.PLATFORM_INSTANCE_ID?.trim() || `${hostname()}-${process.pid}`;
}

function prettyWanted(format: LoggerOptions['format']): boolean {
  return format === 'pretty' || (format === 'auto' && process.stdout.isTTY === true);
}

export function createLogger(options: LoggerOptions | string = {}): Logger {
  const { level, format, role, instance, destination } = typeof options === 'string' ? { level: options } : options;
  const settings = {
    level: level ?? process.env.LOG_LEVEL ?? 'info',
    // The role is bound by the entry point (`log.setBindings`), which runs after this module has made `log`.
    base: { service: 'identity-platform', instance: instance ?? instanceId(), ...(role ? { role } : {}) },
    redact: { paths: REDACT, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  const wanted = format ?? (process.env.LOG_FORMAT as LoggerOptions['format']) ?? 'auto';
  if (!destination && prettyWanted(wanted)) {
    // Synchronous and in this thread: a line printed before a crash is not lost in a worker thread's buffer.
    return pino(settings, pinoPretty({ sync: true, colorize: process.stdout.isTTY === true, ignore: 'pid,hostname,service', translateTime: 'SYS:HH:MM:ss.l' }));
  }
  return destination ? pino(settings, destination) : pino(settings);
}

/**
 * Node's own warnings (a library's deprecation, the AWS SDK's notice of the
 * Node versions it will drop) go through the logger as one line, instead of
 * several lines of plain text on standard error between the JSON ones.
 */
export function routeProcessWarnings(logger: Logger): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning) =>
    logger.warn({ warning: warning.name, code: (warning as { code?: string }).code }, warning.message.replace(/\s*\n\s*/g, ' ')),
  );
}

export type { Logger };

/** The process-wide logger; tests set LOG_LEVEL=silent. An entry point names its role with `log.setBindings({ role })`. */
export const log: Logger = createLogger();
