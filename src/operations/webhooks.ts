// Webhook endpoints of the caller's organization (docs/api.md section 7): register (the secret is
// returned once), list, delete, send a test event, and list recent deliveries with their attempts.
// REST only: these are not MCP tools and not part of the Metrics API.
import { z } from 'zod';
import { operation, type Ctx } from './registry.ts';
import { limit, optionalOneOf, pathId, requiredUrl } from './params.ts';
import { badRequest, notFound } from '../errors.ts';
import { EVENT_TYPES, FORMATS, SLACK_EVENTS, enqueueTestEvent, type WebhookEventType } from '../webhooks/outbox.ts';
import {
  checkUrlAddresses,
  createEndpoint,
  deleteEndpoint,
  endpointInOrganization,
  listEndpoints,
  urlShapeProblem,
  type EndpointRow,
} from '../webhooks/registration.ts';
import { listDeliveries } from '../webhooks/delivery.ts';
import { deliveriesQueued } from '../webhooks/worker.ts';

const NOT_FOUND = 'Webhook not found';
const NO_ORGANIZATION = 'The API key belongs to no organization';
const notFoundError = { status: 404, message: NOT_FOUND } as const;

const webhookUrl = requiredUrl('url', (s) => urlShapeProblem(s) ?? undefined);

const eventsMessage = `events must be a non-empty list of: ${EVENT_TYPES.join(', ')}`;
const events = z.preprocess(
  (v) => (v === undefined || v === null ? undefined : v),
  // Checked as a whole so the message names `events`, not `events.0`.
  z
    .array(z.unknown(), { error: (iss) => (iss.input === undefined ? 'events is required' : eventsMessage) })
    .max(20, 'events accepts at most 20 values')
    .refine(
      (list): list is WebhookEventType[] =>
        list.length > 0 && list.every((e) => (EVENT_TYPES as readonly unknown[]).includes(e)),
      eventsMessage,
    )
    .transform((list) => [...new Set(list)]),
);

const id = pathId('id');

const Endpoint = z.object({
  id: z.string().uuid(),
  url: z.string(),
  events: z.array(z.enum(EVENT_TYPES)),
  format: z
    .enum(FORMATS)
    .describe(
      'standard: signed Standard Webhooks JSON; slack: a Slack incoming-webhook message (text and blocks), unsigned',
    ),
  created_at: z.string(),
});

const view = (r: EndpointRow) => ({
  id: r.id,
  url: r.url,
  events: r.events,
  format: r.format,
  created_at: new Date(r.created_at).toISOString(),
});

const slackEventsMessage = `events of a slack webhook must be among: ${SLACK_EVENTS.join(', ')}`;

async function ownEndpoint(ctx: Ctx, endpointId: string): Promise<EndpointRow> {
  const row = await endpointInOrganization(ctx.stores.pg, ctx.identity.organizationId, endpointId);
  if (!row) throw notFound(NOT_FOUND);
  return row;
}

export const createWebhook = operation({
  name: 'create-webhook',
  method: 'POST',
  path: '/webhooks',
  write: true,
  errors: [
    { status: 400, message: NO_ORGANIZATION },
    { status: 400, message: slackEventsMessage },
  ],
  params: z.object({
    url: webhookUrl,
    events,
    format: optionalOneOf('format', FORMATS).describe(
      `standard (default) or slack: a Slack incoming-webhook URL receiving ${SLACK_EVENTS.join(', ')} as Slack ` +
        'messages',
    ),
  }),
  result: Endpoint.extend({
    secret: z
      .string()
      .nullable()
      .describe('whsec_... signing secret, shown only in this response; null for a slack webhook (sent unsigned)'),
  }),
  description:
    'Registers a webhook endpoint for the organization. The response carries the signing secret, shown only ' +
    'this once. Private and loopback addresses are refused (unless ALLOW_PRIVATE_URLS=1). With format slack ' +
    'the URL is a Slack incoming webhook: alert.fired and digest.daily arrive as Slack messages, unsigned.',
  run: async (ctx, p) => {
    const org = ctx.identity.organizationId;
    if (!org) throw badRequest(NO_ORGANIZATION);
    const format = p.format ?? 'standard';
    if (format === 'slack' && !p.events.every((e) => SLACK_EVENTS.includes(e))) throw badRequest(slackEventsMessage);
    await checkUrlAddresses(p.url, ctx.config.allowPrivateUrls);
    const row = await createEndpoint(ctx.stores.pg, {
      organizationId: org,
      url: p.url,
      events: p.events,
      format,
      secretKey: ctx.config.webhooks.secretKey,
    });
    return { ...view(row), secret: row.secret };
  },
});

export const webhooks = operation({
  name: 'webhooks',
  method: 'GET',
  params: z.object({}),
  result: z.array(Endpoint),
  description: "The organization's webhook endpoints, oldest first (secrets are never listed).",
  run: async (ctx) => (await listEndpoints(ctx.stores.pg, ctx.identity.organizationId)).map(view),
});

export const deleteWebhook = operation({
  name: 'delete-webhook',
  method: 'DELETE',
  path: '/webhooks/:id',
  write: true,
  destructive: true,
  errors: [notFoundError],
  params: z.object({ id }),
  result: z.object({ id: z.string().uuid(), deleted: z.literal(true) }),
  description: 'Deletes a webhook endpoint; its pending deliveries are dropped.',
  run: async (ctx, p) => {
    if (!(await deleteEndpoint(ctx.stores.pg, ctx.identity.organizationId, p.id))) throw notFound(NOT_FOUND);
    return { id: p.id.toLowerCase(), deleted: true as const };
  },
});

export const testWebhook = operation({
  name: 'test-webhook',
  method: 'POST',
  path: '/webhooks/:id/test',
  write: true,
  errors: [notFoundError],
  params: z.object({ id }),
  result: z.object({ delivery_id: z.string().uuid(), type: z.literal('webhook.test'), status: z.literal('pending') }),
  description:
    'Queues a webhook.test event for this endpoint (whatever it subscribed to); follow it in the deliveries list.',
  run: async (ctx, p) => {
    const endpoint = await ownEndpoint(ctx, p.id);
    const deliveryId = await enqueueTestEvent(ctx.stores.pg, endpoint);
    deliveriesQueued();
    return { delivery_id: deliveryId, type: 'webhook.test' as const, status: 'pending' as const };
  },
});

const Attempt = z.object({
  attempt: z.number().int(),
  started_at: z.string(),
  status_code: z.number().int().nullable(),
  latency_ms: z.number().int(),
  response_excerpt: z.string().nullable().describe('The first 500 characters of the response body'),
  error: z.string().nullable().describe('Why the attempt failed (non-2xx status, timeout, refused address, ...)'),
});

export const webhookDeliveries = operation({
  name: 'webhook-deliveries',
  method: 'GET',
  path: '/webhooks/:id/deliveries',
  errors: [notFoundError],
  params: z.object({ id, limit: limit(1, 100, 20).describe('1-100, default 20') }),
  result: z.array(
    z.object({
      id: z.string().uuid().describe('The webhook-id header of every attempt'),
      type: z.enum(EVENT_TYPES),
      status: z.enum(['pending', 'delivering', 'succeeded', 'failed']),
      created_at: z.string(),
      completed_at: z.string().nullable(),
      next_attempt_at: z.string().nullable(),
      attempt_count: z.number().int(),
      attempts: z.array(Attempt),
    }),
  ),
  description:
    "The endpoint's most recent deliveries, newest first, each with its attempts (status code, latency, " +
    'response excerpt, error) and next attempt.',
  run: async (ctx, p) => listDeliveries(ctx.stores.pg, (await ownEndpoint(ctx, p.id)).id, p.limit),
});

/** In registration order. */
export const webhookOperations = [createWebhook, webhooks, deleteWebhook, testWebhook, webhookDeliveries];
