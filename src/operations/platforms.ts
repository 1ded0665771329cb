// The platforms as this server captures them (docs/app.md "Settings > Platforms"), and which of a
// brand's tracked platforms are not configured (its overview says so; nothing fails).
import { z } from 'zod';
import { operation } from './registry.ts';
import { organizationOf } from './workspace-writes.ts';
import { planOf } from '../tenancy/organizations.ts';
import { PLATFORMS } from '../tenancy/tracked.ts';
import { platformStatus } from '../tracking/capture/platform-status.ts';

export const platforms = operation({
  name: 'platforms',
  method: 'GET',
  params: z.object({}),
  result: z.array(
    z.object({
      platform: z.enum(PLATFORMS),
      provider: z.string(),
      engine: z.enum(['live', 'simulated']),
      configured: z.boolean().describe("Whether this server can capture it: its provider's key is set"),
      key_variable: z.string().describe('The variable that holds the key'),
      model: z.string(),
      on_plan: z.boolean().describe("Whether the organization's plan captures it"),
      last_capture: z
        .object({ day: z.string(), status: z.string(), error: z.string().nullable(), at: z.string() })
        .nullable()
        .describe("The organization's last capture on it: status and error"),
    }),
  ),
  description:
    "Every platform as this server captures it: configured or not (which variable holds its provider's key), " +
    "the model asked, whether the plan captures it, and the organization's last capture on it with its status " +
    'and error.',
  run: async (ctx) => {
    const organizationId = organizationOf(ctx);
    const plan = await planOf(ctx.stores.pg, organizationId);
    return platformStatus(ctx.stores.pg, ctx.config, organizationId, plan);
  },
});
