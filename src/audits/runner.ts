// The audit worker, started by the server beside the scheduler. It polls site_audits for running
// rows nobody holds, claims them (store.ts), runs them and records the outcome. Durability comes
// from the row, not from this process: an audit whose worker died keeps its stale claim until
// another tick re-claims it (attempts + 1), and after MAX_ATTEMPTS it is failed with a reason and
// its quota unit given back.
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Stores } from '../stores/index.ts';
import { AuditFailure, auditUrl } from './audit.ts';
import { claimAudit, completeAudit, failAudit, failExhausted, type Claim } from './store.ts';
import { startPoller, WakeGroup } from '../../jobs/poller.ts';

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

export interface AuditWorker {
  /** Claims and starts what is due now (also run every POLL_MS). */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

// Workers of this process, woken when an audit is queued so it starts without waiting for a poll.
const workers = new WakeGroup();

/** Tells this process's workers that an audit was queued. */
export function auditQueued(): void {
  workers.wakeAll();
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export function startAuditWorker(deps: AuditWorkerDeps, opts: { pollMs?: number; staleMs?: number; maxAttempts?: number } = {}): AuditWorker {
  const { stores, config, log } = deps;
  const limits = { staleMs: opts.staleMs ?? STALE_MS, maxAttempts: opts.maxAttempts ?? MAX_ATTEMPTS };
  const inflight = new Map<string, { done: Promise<void>; abort: AbortController }>();

  async function run(claim: Claim): Promise<void> {
    const abort = new AbortController();
    const deadline = config.audits.timeoutMs + 5_000;
    const done = (async () => {
      try {
        // The fetches keep to the deadline on their own; this guard covers anything that does not.
        const result = await Promise.race([
          auditUrl(claim.url, { allowPrivate: config.allowPrivateUrls, timeoutMs: config.audits.timeoutMs, fastMs: config.audits.fastMs, signal: abort.signal, now: deps.now?.() }),
          sleep(deadline).then(() => { throw new AuditFailure(`The audit did not finish within ${Math.round(deadline / 1000)} s`); }),
        ]);
        await completeAudit(stores.pg, claim, result);
      } catch (err) {
        // Stopping: leave the row running; its claim goes stale and a later tick resumes it.
        if (abort.signal.aborted) return;
        if (!(err instanceof AuditFailure)) log.error({ err, auditId: claim.id }, 'site audit crashed');
        // The customer reads the class of a refused address; the address itself is only logged.
        else if (err.detail) log.info({ auditId: claim.id, detail: err.detail }, 'site audit refused');
        const message = err instanceof AuditFailure ? err.message : 'The audit failed unexpectedly while analysing the page';
        await failAudit(stores.pg, claim, message);
      }
    })()
      .catch((err) => log.error({ err, auditId: claim.id }, 'could not record the site audit outcome'))
      .finally(() => {
        inflight.delete(claim.id);
        wake();
      });
    inflight.set(claim.id, { done, abort });
  }

  const poller = startPoller({
    name: 'site audit worker',
    pollMs: opts.pollMs ?? POLL_MS,
    log,
    group: workers,
    async tickOnce() {
      await failExhausted(stores.pg, limits);
      while (!poller.stopped && inflight.size < CONCURRENCY) {
        const claim = await claimAudit(stores.pg, limits);
        if (!claim) break;
        if (claim.attempts > 1) log.warn({ auditId: claim.id, attempt: claim.attempts }, 'resuming an interrupted site audit');
        void run(claim);
      }
    },
  });
  const wake = poller.wake;

  return {
    tick: poller.tick,
    async stop() {
      await poller.stop();
      const running = [...inflight.values()];
      const finished = Promise.allSettled(running.map((r) => r.done));
      await Promise.race([finished, sleep(GRACE_MS)]);
      for (const r of running) r.abort.abort();
      await finished;
    },
  };
}
