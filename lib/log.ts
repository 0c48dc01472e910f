import { pino, type Logger } from 'pino';

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

export function createLogger(level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: { service: 'identity-platform' },
    redact: { paths: REDACT, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}

export type { Logger };

/** The process-wide logger; tests set LOG_LEVEL=silent. */
export const log: Logger = createLogger();
