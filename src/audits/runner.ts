// The audit worker, started by the server beside the scheduler. It polls site_audits for running
// rows nobody holds, claims them (store.ts), runs them and records the outcome. Durability comes
// from the row, not from this process: an audit whose worker died keeps its stale claim until
// another tick re-claims it (attempts + 1), and after MAX_ATTEMPTS it is failed with a reason and
// its quota unit given back.
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Stores } from '../stores/index.ts';
import { claimAudit, completeAudit, failAudit, failExhausted, type Claim } from './store.ts';
import { startClaimWorker, WakeGroup, type ClaimWorker } from '../runtime/claim-worker.ts';

export const POLL_MS = 1_000;
/** Audits end within AUDIT_TIMEOUT_MS (30 s by default); a claim older than this is abandoned. */
export const STALE_MS = 120_000;
export const MAX_ATTEMPTS = 3;
const CONCURRENCY = 4;
/** How long stop() lets running audits finish before leaving them to recovery. */
const GRACE_MS = 5_000;

export interface AuditWorkerDeps {
  stores: Stores;
  config: Config;
  log: Logger;
  now?: () => Date;
}

/** tick() claims and starts what is due now (also run every POLL_MS). */
export type AuditWorker = ClaimWorker;

// Workers of this process, woken when an audit is queued so it starts without waiting for a poll.
const workers = new WakeGroup();

/** Tells this process's workers that an audit was queued. */
export function auditQueued(): void {
  workers.wakeAll();
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export function startAuditWorker(
  deps: AuditWorkerDeps,
  opts: { pollMs?: number; staleMs?: number; maxAttempts?: number } = {},
): AuditWorker {
  const { stores, config, log } = deps;
  const limits = { staleMs: opts.staleMs ?? STALE_MS, maxAttempts: opts.maxAttempts ?? MAX_ATTEMPTS };

  async function run(claim: Claim, signal: AbortSignal): Promise<void> {
    // Loaded by the first audit, not at start: the page parser (cheerio) and the signals cost every
    // process a third of a CPU second to load, and most never audit a page.
    const { AuditFailure, auditUrl } = await import('./audit.ts');
    const { timeoutMs, fastMs } = config.audits;
    const deadline = timeoutMs + 5_000;
    try {
      // The fetches keep to the deadline on their own; this guard covers anything that does not.
      const result = await Promise.race([
        auditUrl(claim.url, { allowPrivate: config.allowPrivateUrls, timeoutMs, fastMs, signal, now: deps.now?.() }),
        sleep(deadline).then(() => {
          throw new AuditFailure(`The audit did not finish within ${Math.round(deadline / 1000)} s`);
        }),
      ]);
      await completeAudit(stores.pg, claim, result);
    } catch (err) {
      // Stopping: leave the row running; its claim goes stale and a later tick resumes it.
      if (signal.aborted) return;
      if (!(err instanceof AuditFailure)) log.error({ err, auditId: claim.id }, 'site audit crashed');
      // The customer reads the class of a refused address; the address itself is only logged.
      else if (err.detail) log.info({ auditId: claim.id, detail: err.detail }, 'site audit refused');
      const message =
        err instanceof AuditFailure ? err.message : 'The audit failed unexpectedly while analysing the page';
      await failAudit(stores.pg, claim, message);
    }
  }

  return startClaimWorker<Claim>({
    name: 'site audit worker',
    pollMs: opts.pollMs ?? POLL_MS,
    log,
    concurrency: CONCURRENCY,
    group: workers,
    graceMs: GRACE_MS,
    sweep: () => failExhausted(stores.pg, limits),
    // claimAudit takes one row per call; the frame calls again while there is room.
    async claim() {
      const claim = await claimAudit(stores.pg, limits);
      if (claim && claim.attempts > 1) {
        log.warn({ auditId: claim.id, attempt: claim.attempts }, 'resuming an interrupted site audit');
      }
      return claim ? [claim] : [];
    },
    work: run,
    onError: (err, claim) => log.error({ err, auditId: claim.id }, 'could not record the site audit outcome'),
  });
}
