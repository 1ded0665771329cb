// Webhook endpoints of an organization: the URL policy, and create / list / find / delete.
// The URL is checked here at registration (shape, then the addresses its host resolves to) and
// again by the delivery worker on every attempt, through src/audits/fetch.ts, which resolves and
// checks inside the socket's own lookup (a DNS answer that changes in between cannot slip through).
import { randomUUID } from 'node:crypto';
import dns from 'node:dns/promises';
import type { Postgres } from '../stores/postgres.ts';
import { badRequest } from '../errors.ts';
import { blockedReason, isIpLiteral, refusedAs } from '../audits/addresses.ts';
import { lockOrganization } from '../tenancy/organizations.ts';
import { generateSecret, sealSecret } from './signing.ts';
import type { WebhookEventType, WebhookFormat } from './outbox.ts';
import { UUID_RE } from '../uuid.ts';

/** Registrations per organization; a runaway script should not fan events out without limit. */
export const MAX_ENDPOINTS = 20;

export interface EndpointRow {
  id: string;
  organization_id: string;
  url: string;
  events: WebhookEventType[];
  format: WebhookFormat;
  created_at: Date;
}

/** Why `raw` is not an acceptable webhook URL by its shape alone, or null. */
export function urlShapeProblem(raw: string): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'url must be an http(s) URL';
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname) return 'url must be an http(s) URL';
  if (u.username || u.password) return 'url must not contain a user name or password';
  return null;
}

/**
 * Refuses a URL whose host is, or resolves to, a non-public address (unless private URLs are
 * allowed). A host that does not resolve is refused too: it is most likely a typo. The refusal
 * names the class of the address, never the address (docs/api.md section 9).
 */
export async function checkUrlAddresses(raw: string, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  const host = new URL(raw).hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIpLiteral(host)) addresses = [host];
  else {
    try {
      addresses = (await dns.lookup(host, { all: true })).map((a) => a.address);
    } catch {
      throw badRequest(`url host ${host} could not be resolved`);
    }
  }
  const refused = addresses.find((ip) => blockedReason(ip) !== null);
  if (refused) {
    throw badRequest(`url is not allowed: ${refusedAs(host, refused)}; webhooks can only be sent to public addresses`);
  }
}

const COLUMNS = 'id, organization_id, url, events, format, created_at';

/**
 * Registers an endpoint; returns it with its secret, the only time the secret leaves the service.
 * A Slack endpoint has none: Slack's incoming webhooks take unsigned messages.
 */
export async function createEndpoint(
  pg: Postgres,
  input: { organizationId: string; url: string; events: WebhookEventType[]; format: WebhookFormat; secretKey?: string },
): Promise<EndpointRow & { secret: string | null }> {
  const secret = input.format === 'slack' ? null : generateSecret();
  const row = await pg.tx(async (client) => {
    // Serialises registrations of one organization so the cap holds under concurrent requests.
    await lockOrganization(client, input.organizationId);
    const {
      rows: [{ n }],
    } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhook_endpoints WHERE organization_id = $1',
      [input.organizationId],
    );
    if (n >= MAX_ENDPOINTS) throw badRequest(`At most ${MAX_ENDPOINTS} webhook endpoints per organization`);
    const { rows } = await client.query<EndpointRow>(
      `INSERT INTO webhook_endpoints (id, organization_id, url, events, format, secret) VALUES ($1, $2, $3, $4, $5, $6)
       RETURNING ${COLUMNS}`,
      [
        randomUUID(),
        input.organizationId,
        input.url,
        input.events,
        input.format,
        secret && sealSecret(secret, input.secretKey),
      ],
    );
    return rows[0];
  });
  return { ...row, secret };
}

export async function listEndpoints(pg: Postgres, organizationId: string | null): Promise<EndpointRow[]> {
  if (!organizationId) return [];
  const { rows } = await pg.query<EndpointRow>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE organization_id = $1 ORDER BY created_at, id`,
    [organizationId],
  );
  return rows;
}

/** The endpoint if it belongs to the organization; undefined for unknown, malformed or foreign ids. */
export async function endpointInOrganization(
  pg: Postgres,
  organizationId: string | null,
  id: string,
): Promise<EndpointRow | undefined> {
  if (!organizationId || !UUID_RE.test(id)) return undefined;
  const { rows } = await pg.query<EndpointRow>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = $1 AND organization_id = $2`,
    [id.toLowerCase(), organizationId],
  );
  return rows[0];
}

/** Deletes the endpoint and its deliveries (pending ones are never sent). False when not the organization's. */
export async function deleteEndpoint(pg: Postgres, organizationId: string | null, id: string): Promise<boolean> {
  const endpoint = await endpointInOrganization(pg, organizationId, id);
  if (!endpoint) return false;
  const { rowCount } = await pg.query('DELETE FROM webhook_endpoints WHERE id = $1 AND organization_id = $2', [
    endpoint.id,
    organizationId,
  ]);
  return Boolean(rowCount);
}
