// The `answerscope` commands (docs/api.md section 5), as functions over open stores. The command-line
// process and the running server's admin channel both call runCommand, so a command does the same
// thing whether it opened the stores itself or reached them through the server.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { migrate } from '../stores/migrate.ts';
import { UserError } from '../errors.ts';
import { applyWorkspace, parseWorkspace } from '../tenancy/workspace.ts';
import { createKey, revokeKey } from '../tenancy/keys.ts';
import { addMember, removeMember } from '../tenancy/members.ts';
import { setPasswordByEmail } from '../tenancy/accounts.ts';
import { newSetupCode, setupAddress } from '../tenancy/setup.ts';
import { findJob, jobs } from '../../jobs/index.ts';
import { utcDay } from '../../jobs/schedule.ts';
import { ingestFile } from '../tracking/ingest/file.ts';
import { reanalyzeBrand } from '../tracking/reanalysis/reanalyze.ts';
import { reanalysisQueued } from '../tracking/reanalysis/queue.ts';
import { brandById } from '../tenancy/brands.ts';
import { failReanalysis, reanalysisStatus, startReanalysis } from '../tenancy/reanalysis-queue.ts';
import { importVolumes } from '../content/volumes.ts';
import { runWarehouseCommand } from './warehouse.ts';
import { CRAWLER_LOGS_USAGE, runCrawlerLogsCommand } from './crawler-logs.ts';
import { EXPORT_USAGE, runExportCommand } from './export.ts';
import { IMPORT_TRACKER_USAGE, runImportTracker } from './import-tracker.ts';
import { UUID_RE } from '../uuid.ts';
import type { CommandEnv } from './env.ts';

export const USAGE = `usage: answerscope <command>
  migrate
  apply FILE
  ingest FILE
  reanalyze --brand ID
  reanalyze status [--brand ID]
  keys create --email E [--org ORG_ID] [--name N]   (--org: required when E is in several)
  keys revoke ID
  users set-password --email E   (the password: the first line of standard input)
  setup-link                     (a new first-run address; the old one stops working)
  members add --email E --org ORG_ID
  members remove --email E --org ORG_ID
  jobs run NAME [--brand ID] [--date YYYY-MM-DD]
  volumes import FILE
  warehouse grant --org ORG_ID --user NAME [--password P] [--apply]
  ${EXPORT_USAGE}
  ${IMPORT_TRACKER_USAGE}
  ${CRAWLER_LOGS_USAGE}`;

function uuidArg(value: string | undefined, what: string): string {
  if (!value) throw new UserError(`${what} is required\n${USAGE}`);
  if (!UUID_RE.test(value)) throw new UserError(`${what} must be a UUID, got ${JSON.stringify(value)}`);
  return value.toLowerCase();
}

function required(value: string | undefined, what: string): string {
  if (!value) throw new UserError(`${what} is required\n${USAGE}`);
  return value;
}

function parse(argv: string[], options: Record<string, { type: 'string' }>) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UserError(`${(err as Error).message}\n${USAGE}`);
  }
}

export function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new UserError(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UserError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
}

export async function runCommand(env: CommandEnv, argv: string[]): Promise<unknown> {
  const [command, sub, ...rest] = argv;
  const file = (p: string | undefined) => path.resolve(env.cwd, required(p, 'FILE'));
  switch (command) {
    case 'migrate':
      return migrate(env.stores.pg, env.stores.ch);
    case 'apply': {
      const applied = await applyWorkspace(env.stores.pg, parseWorkspace(readJsonFile(file(sub))));
      // Run through a server (the admin channel), its worker starts at once instead of at its next poll.
      if (applied.organizations.some((o) => o.brands.some((b) => b.reanalysis_queued))) reanalysisQueued();
      return applied;
    }
    case 'ingest':
      return ingestFile(env.stores, file(sub), undefined, { now: env.now });
    case 'warehouse':
      return runWarehouseCommand(env, sub, rest);
    case 'crawler-logs':
      return runCrawlerLogsCommand(env, sub, rest);
    case 'export':
      return runExportCommand(env.stores, sub, rest);
    case 'import-tracker': {
      const { values } = parse(rest, {
        brand: { type: 'string' },
        format: { type: 'string' },
        map: { type: 'string' },
      });
      return runImportTracker(env.stores, file(sub), values);
    }
    case 'reanalyze':
      return reanalyzeCommand(env, argv.slice(1));
    case 'setup-link': {
      // The running server's address as this configuration gives it (PUBLIC_URL first).
      const host = ['0.0.0.0', '::'].includes(env.config.host) ? 'localhost' : env.config.host;
      const base = env.config.publicUrl ?? `http://${host.includes(':') ? `[${host}]` : host}:${env.config.port}`;
      return { setup_url: setupAddress(base, await newSetupCode(env.stores.pg)) };
    }
    case 'volumes':
      if (sub === 'import') return importVolumes(env.stores.pg, file(rest[0]));
      break;
    case 'keys': {
      const { values, positionals } = parse(rest, {
        email: { type: 'string' },
        name: { type: 'string' },
        org: { type: 'string' },
      });
      if (sub === 'create') {
        const organizationId = values.org === undefined ? undefined : uuidArg(values.org, '--org');
        return createKey(env.stores.pg, {
          email: required(values.email, '--email'),
          name: values.name,
          organizationId,
        });
      }
      if (sub === 'revoke') return revokeKey(env.stores.pg, uuidArg(positionals[0], 'ID'));
      break;
    }
    case 'users': {
      const { values } = parse(rest, { email: { type: 'string' } });
      if (sub !== 'set-password') break;
      if (env.input === undefined) throw new UserError('set-password reads the password from standard input');
      return setPasswordByEmail(env.stores.pg, required(values.email, '--email'), env.input);
    }
    case 'members': {
      const { values } = parse(rest, { email: { type: 'string' }, org: { type: 'string' } });
      const email = required(values.email, '--email');
      const org = uuidArg(values.org, '--org');
      if (sub === 'add') return addMember(env.stores.pg, email, org);
      if (sub === 'remove') return removeMember(env.stores.pg, email, org);
      break;
    }
    case 'jobs': {
      const { values, positionals } = parse(rest, { brand: { type: 'string' }, date: { type: 'string' } });
      if (sub !== 'run') break;
      const name = required(positionals[0], 'NAME');
      const job = findJob(name);
      if (!job) throw new UserError(`Unknown job ${name}; known jobs: ${jobs.map((j) => j.name).join(', ') || 'none'}`);
      const date = values.date ?? utcDay((env.now ?? (() => new Date()))());
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) {
        throw new UserError(`--date must be YYYY-MM-DD, got ${JSON.stringify(date)}`);
      }
      const brandId = values.brand === undefined ? undefined : uuidArg(values.brand, '--brand');
      return job.run(
        { stores: env.stores, config: env.config, log: env.log, now: env.now ?? (() => new Date()) },
        { brandId, date },
      );
    }
  }
  throw new UserError(`Unknown command: ${argv.join(' ') || '(none)'}\n${USAGE}`);
}

/**
 * `reanalyze --brand ID` re-analyses the brand now and prints {brand_id, answers, seconds};
 * `reanalyze status [--brand ID]` prints the reanalyses rows (queued, running with progress, done, failed).
 */
async function reanalyzeCommand(env: CommandEnv, argv: string[]): Promise<unknown> {
  const status = argv[0] === 'status';
  const { values } = parse(status ? argv.slice(1) : argv, { brand: { type: 'string' } });
  if (status) {
    const brandId = values.brand === undefined ? undefined : uuidArg(values.brand, '--brand');
    return { reanalyses: await reanalysisStatus(env.stores.pg, brandId) };
  }
  const brandId = uuidArg(values.brand, '--brand');
  if (!(await brandById(env.stores.pg, brandId))) throw new UserError(`No brand ${brandId}`);
  await startReanalysis(env.stores.pg, brandId, 'operator request (answerscope reanalyze)');
  try {
    const { brand_id, answers, seconds } = await reanalyzeBrand(env.stores, brandId);
    return { brand_id, answers, seconds };
  } catch (err) {
    await failReanalysis(env.stores.pg, brandId, (err as Error).message);
    throw err;
  }
}
