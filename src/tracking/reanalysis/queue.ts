// Runs queued re-analyses in the background of every server instance: `apply` (or an operator)
// queues one when a brand's entities change; a claimed row is this instance's, and a row whose
// claim went stale (its instance died mid-run) is taken over and started again from the top.
import type { Logger } from 'pino';
import type { Stores } from '../../stores/index.ts';
import { startClaimWorker, WakeGroup, type ClaimWorker } from '../../runtime/claim-worker.ts';
import { claimReanalysis, failReanalysis } from '../../tenancy/reanalysis-queue.ts';
import { reanalyzeBrand } from './reanalyze.ts';

export const POLL_MS = 2_000;
/** A running re-analysis reports progress after every page; this long without one, it died. */
export const STALE_MS = 10 * 60_000;

const workers = new WakeGroup();

/** Tells this process's workers that a re-analysis was queued, so it starts without waiting for a poll. */
export function reanalysisQueued(): void {
  workers.wakeAll();
}

export function startReanalysisWorker(
  deps: { stores: Stores; log: Logger },
  opts: { pollMs?: number; staleMs?: number } = {},
): ClaimWorker {
  const { stores, log } = deps;
  return startClaimWorker<{ brand_id: string; reason: string }>({
    name: 'reanalysis worker',
    pollMs: opts.pollMs ?? POLL_MS,
    log,
    // One at a time: each holds the ingest lock, so a second would only wait for it.
    concurrency: 1,
    group: workers,
    async claim() {
      const row = await claimReanalysis(stores.pg, opts.staleMs ?? STALE_MS);
      return row ? [row] : [];
    },
    async work(row) {
      try {
        const result = await reanalyzeBrand(stores, row.brand_id);
        log.info({ ...result, reason: row.reason }, 'brand re-analysed');
      } catch (err) {
        log.error({ err, brandId: row.brand_id }, 're-analysis failed');
        await failReanalysis(stores.pg, row.brand_id, (err as Error).message);
      }
    },
    onError: (err, row) => log.error({ err, brandId: row.brand_id }, 'could not record the re-analysis outcome'),
  });
}
