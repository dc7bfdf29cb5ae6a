/**
 * The app's logger, and the one place that decides how its lines look: readable lines for a
 * person at a terminal in development, JSON lines for everything else (production, a pipe, a
 * file, a log collector), unless `server.logger.format` (`LOG_FORMAT`) forces either.
 */
import { pino, type DestinationStream, type Level, type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';

export type LogFormat = 'pretty' | 'json';
/** `server.logger.format`: `auto` decides from the environment (chooseLogFormat) */
export type LogFormatSetting = LogFormat | 'auto';

/** Pretty only where a person reads the lines as they come: a terminal, outside production. */
export function chooseLogFormat(
  setting: LogFormatSetting,
  where: { nodeEnv: string | undefined; isTTY: boolean },
): LogFormat {
  if (setting !== 'auto') return setting;
  return where.isTTY && where.nodeEnv !== 'production' ? 'pretty' : 'json';
}

/** A pino logger writing to stdout in the given format. */
export function createLogger(options: { level: Level | 'silent'; format: LogFormat }): Logger {
  if (options.format === 'json') return pino({ level: options.level });
  return pino({ level: options.level }, prettyStdout());
}

/** A request line as `GET /api/articles 200 3.2ms`: the fields a person scans for, in one place. */
function shortenRequest(line: Record<string, unknown>): Record<string, unknown> {
  const { method, url, status, ms, ...rest } = line;
  if (line.msg !== 'request' || typeof method !== 'string') return line;
  return { ...rest, msg: `${method} ${String(url)} ${String(status)} ${String(ms)}ms` };
}

/**
 * pino's JSON lines, each made readable in this process: written as they come (a terminal or a
 * pipe takes them synchronously), so the lines before a `process.exit()` are not lost, as they
 * could be with a transport's worker thread.
 */
function prettyStdout(): DestinationStream {
  const format = prettyFactory({
    translateTime: 'SYS:HH:MM:ss.l',
    // the same on every line, or (the request id) long and only useful across processes: JSON has them
    ignore: 'pid,hostname,reqId',
    singleLine: true,
  });
  return {
    write(line: string) {
      process.stdout.write(format(shortenRequest(JSON.parse(line) as Record<string, unknown>)));
    },
  };
}
