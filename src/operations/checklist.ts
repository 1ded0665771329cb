// The set-up checklist on a new organization's overview (docs/app.md "A checklist"): each step
// done when it is, until all are done or someone dismisses it.
import { z } from 'zod';
import { operation } from './registry.ts';
import { organizationOf } from './workspace-writes.ts';
import { dismissChecklist, organizationSteps } from '../tenancy/checklist.ts';
import { planOf } from '../tenancy/organizations.ts';
import { organizationCaptured, platformStatus } from '../tracking/capture/platform-status.ts';

const STEPS = ['brand', 'competitors', 'prompts', 'platforms', 'first_capture', 'invite', 'assistant'] as const;

export const checklist = operation({
  name: 'checklist',
  method: 'GET',
  params: z.object({}),
  result: z.object({
    show: z.boolean().describe('False once every step is done or the checklist was dismissed'),
    dismissed_at: z.string().nullable(),
    steps: z.array(z.object({ step: z.enum(STEPS), done: z.boolean() })),
  }),
  description:
    "The organization's set-up checklist: a brand, competitors, prompts, platforms configured, a first " +
    'capture, someone invited, an assistant connected; each done when it is.',
  run: async (ctx) => {
    const organizationId = organizationOf(ctx);
    const pg = ctx.stores.pg;
    const steps = await organizationSteps(pg, organizationId);
    const plan = await planOf(pg, organizationId);
    const platforms = (await platformStatus(pg, ctx.config, organizationId, plan)).filter((p) => p.on_plan);
    const done: Record<(typeof STEPS)[number], boolean> = {
      brand: steps.brands > 0,
      competitors: steps.competitors > 0,
      prompts: steps.active_prompts > 0,
      // Every platform the plan captures can be asked: its provider's key is set.
      platforms: platforms.length > 0 && platforms.every((p) => p.configured),
      first_capture: await organizationCaptured(pg, organizationId),
      invite: steps.invited,
      assistant: steps.assistant_connected,
    };
    const list = STEPS.map((step) => ({ step, done: done[step] }));
    return { show: !steps.dismissed_at && list.some((s) => !s.done), dismissed_at: steps.dismissed_at, steps: list };
  },
});

export const dismissChecklistOperation = operation({
  name: 'dismiss-checklist',
  method: 'POST',
  write: true,
  idempotent: true,
  params: z.object({}),
  result: z.object({ dismissed: z.literal(true) }),
  description: "Hides the organization's set-up checklist for everyone in it.",
  run: async (ctx) => {
    await dismissChecklist(ctx.stores.pg, organizationOf(ctx));
    return { dismissed: true as const };
  },
});
