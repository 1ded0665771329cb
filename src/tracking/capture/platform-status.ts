// Settings > Platforms (docs/app.md): for each platform, whether this server can capture it (its
// provider's key, or the simulated engine), the model it asks, whether the organization's plan
// captures it, and its last capture in the organization: status and error.
import type { Config, TrackingConfig } from '../../config.ts';
import type { Postgres } from '../../stores/postgres.ts';
import { PLATFORMS, type Platform } from '../../tenancy/tracked.ts';
import type { Plan } from '../../tenancy/quotas.ts';
import { PLAN_PLATFORMS } from './plan.ts';
import { PROVIDERS, providerOf } from './engines/registry.ts';

export interface PlatformStatus {
  platform: Platform;
  provider: string;
  engine: 'live' | 'simulated';
  configured: boolean;
  key_variable: string;
  model: string;
  on_plan: boolean;
  last_capture: { day: string; status: string; error: string | null; at: string } | null;
}

/** Whether the server captures the platform: the simulated engine answers all, live needs the key. */
export function platformConfigured(tracking: TrackingConfig, platform: Platform): boolean {
  return tracking.engine === 'simulated' || Boolean(tracking.providers[providerOf(platform)].apiKey);
}

export async function platformStatus(
  pg: Postgres,
  config: Config,
  organizationId: string,
  plan: Plan,
): Promise<PlatformStatus[]> {
  // The latest slot touched per platform: the newest day, then the last finished (or recorded).
  const { rows } = await pg.query<{ platform: string; day: string; status: string; error: string | null; at: Date }>(
    `SELECT DISTINCT ON (platform) platform, to_char(day, 'YYYY-MM-DD') AS day, status, error,
            COALESCE(finished_at, claimed_at, created_at) AS at
       FROM capture_runs WHERE organization_id = $1
      ORDER BY platform, day DESC, COALESCE(finished_at, claimed_at, created_at) DESC`,
    [organizationId],
  );
  const last = new Map(rows.map((r) => [r.platform, r]));
  return PLATFORMS.map((platform) => {
    const provider = providerOf(platform);
    const run = last.get(platform);
    return {
      platform,
      provider,
      engine: config.tracking.engine,
      configured: platformConfigured(config.tracking, platform),
      key_variable: PROVIDERS[provider].keyVariable,
      model: config.tracking.providers[provider].model,
      on_plan: (PLAN_PLATFORMS[plan] ?? []).includes(platform),
      last_capture: run
        ? { day: run.day, status: run.status, error: run.error, at: new Date(run.at).toISOString() }
        : null,
    };
  });
}

/** Whether any capture of the organization has stored an answer. */
export async function organizationCaptured(pg: Postgres, organizationId: string): Promise<boolean> {
  const { rows } = await pg.query<{ done: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM capture_runs WHERE organization_id = $1 AND status = 'succeeded') AS done`,
    [organizationId],
  );
  return rows[0].done;
}
