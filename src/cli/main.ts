// Entry point of the `answerscope` command. Prints one JSON document on success; on failure a
// one-line reason on stderr and a non-zero exit. In embedded mode, a server already running on the
// same DATA_DIR runs the command (see admin.ts); otherwise the command opens the stores itself.
// The commands, the stores and the logger are imported only on the path that runs them, so a
// command a running server takes loads little more than its configuration.
import { ConfigError, isEmbedded, loadConfig } from '../config.ts';
import { ApiError, UserError } from '../errors.ts';
import { callAdminChannel } from './admin.ts';

/** What main returns when the command has written its output already (an export). */
const STREAMED = Symbol('streamed');

/** The first line of standard input without its line break (`users set-password` reads the password there). */
async function firstLine(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    if ((chunk as Buffer).includes(10)) break;
  }
  return Buffer.concat(chunks).toString('utf8').split('\n')[0].replace(/\r$/, '');
}

async function main(argv: string[]): Promise<unknown> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
    throw new UserError((await import('./commands.ts')).USAGE);
  }
  const config = loadConfig();
  const input = argv[0] === 'users' && argv[1] === 'set-password' ? await firstLine() : undefined;
  const embedded = isEmbedded(config);
  if (embedded.postgres || embedded.clickhouse) {
    const viaServer = await callAdminChannel(config.dataDir, argv, process.cwd(), process.stdout, input);
    if (viaServer) return viaServer.streamed ? STREAMED : viaServer.result;
  }
  const [{ openStores }, { migrate }, { createLogger, openLogSink }, { runCommand }, { LineStream }] =
    await Promise.all([
      import('../stores/index.ts'),
      import('../stores/migrate.ts'),
      import('../logger.ts'),
      import('./commands.ts'),
      import('./export.ts'),
    ]);
  const stores = await openStores(config);
  try {
    // Every command works on an up-to-date schema; `migrate` reports what it applied.
    if (argv[0] !== 'migrate') await migrate(stores.pg, stores.ch);
    // Stderr through the same bounded asynchronous sink as the server's stdout: a reader that stops
    // reading cannot hold the command at exit (pino's flush at exit gives up after 2 s).
    const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, openLogSink(2).stream);
    const result = await runCommand({ stores, config, log, cwd: process.cwd(), input }, argv);
    if (!(result instanceof LineStream)) return result;
    // Written while the stores are open: it reads them page by page.
    await result.writeTo(process.stdout);
    return STREAMED;
  } finally {
    await stores.close();
  }
}

main(process.argv.slice(2)).then(
  (result) => {
    // A stream exits once standard output has taken its last line.
    if (result === STREAMED) return process.stdout.write('', () => process.exit(0));
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    process.exit(0);
  },
  (err) => {
    // Exactly one line on stderr: the reason (the usage text stays in --help). An ApiError is a refusal
    // the API words the same way, e.g. `apply` past the plan's prompt limit.
    const known = err instanceof UserError || err instanceof ConfigError || err instanceof ApiError;
    const message = known ? (err as Error).message : `answerscope: ${(err as Error).message}`;
    process.stderr.write(`${message.split('\n')[0]}\n`);
    process.exit(1);
  },
);
