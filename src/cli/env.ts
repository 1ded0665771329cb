// What every command of the command line is given: the stores, the configuration and where it runs.
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Stores } from '../stores/index.ts';

export interface CommandEnv {
  stores: Stores;
  config: Config;
  log: Logger;
  /** Where relative file arguments are resolved: the caller's working directory. */
  cwd: string;
  now?: () => Date;
  /** The first line of standard input, its line break removed, for commands that read one. */
  input?: string;
}
