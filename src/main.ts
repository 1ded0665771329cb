// `npm start`: configuration -> stores -> migrations -> HTTP server -> schedule.
import { ConfigError, loadConfig, type Config } from './config.ts';
import { startServer } from './server.ts';
import { abandonProcessLog, drainProcessLog } from './logger.ts';

/** How long an exit waits for stdout's reader to take the last log lines. */
const LOG_DRAIN_MS = 2000;

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const server = await startServer(config);
  process.stdout.write(`Answerscope listening on ${server.url}\n`);

  let stopping = false;
  let exiting = false;
  // The log is written asynchronously: its last lines are given a bounded wait, so a log reader
  // that does not read can delay an exit by LOG_DRAIN_MS at most, and never stop it.
  const exit = async (code: number) => {
    if (exiting) return;
    exiting = true;
    if (!(await drainProcessLog(LOG_DRAIN_MS))) abandonProcessLog();
    process.exit(code);
  };
  const stop = (signal: string) => {
    // A second signal means "now", whatever the log reader does.
    if (stopping) {
      abandonProcessLog();
      process.exit(1);
    }
    stopping = true;
    server.log.info({ signal }, 'shutting down');
    // Whatever still runs past the deadline (a hung store, a long job) is left to its claim expiry.
    setTimeout(() => {
      server.log.error({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown timed out; exiting');
      void exit(1);
    }, config.shutdownTimeoutMs).unref();
    server.close().then(
      () => {
        server.log.info('shut down');
        return exit(0);
      },
      () => exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(`Answerscope failed to start: ${(err as Error).message}\n`);
  process.exit(1);
});
