import { pino, type Logger } from 'pino';

export function createLogger(options: { level: string; name?: string }): Logger {
  return pino({
    name: options.name ?? 'outreach',
    level: options.level,
    // Never log credentials, wherever they appear.
    redact: {
      paths: ['req.headers["x-api-key"]', 'req.headers.authorization', 'api_key', '*.api_key', '*.password', '*.smtp_password', '*.imap_password'],
      censor: '[redacted]',
    },
  });
}
