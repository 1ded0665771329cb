// `npm start`: configuration -> stores -> migrations -> HTTP server -> schedule.
import { ConfigError, loadConfig } from './config.ts';
import { startServer } from './server.ts';

async function main() {
  let config;
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
  const stop = (signal: string) => {
    // A second signal means "now".
    if (stopping) process.exit(1);
    stopping = true;
    server.log.info({ signal }, 'shutting down');
    // Whatever still runs past the deadline (a hung store, a long job) is left to its claim expiry.
    setTimeout(() => {
      server.log.error({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    server.close().then(() => {
      server.log.info('shut down');
      process.exit(0);
    }, () => process.exit(1));
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(`Answerscope failed to start: ${(err as Error).message}\n`);
  process.exit(1);
});
