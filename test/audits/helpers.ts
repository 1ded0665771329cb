// Starting an audit over the API and waiting for its outcome.
import { call, get, type TestServer, type Tenant } from '../helpers/server.ts';

export async function startAudit(server: TestServer, tenant: Tenant, url: string, brandId = tenant.brandId) {
  return call(server, 'POST', '/api/mcp/site-audits', { key: tenant.key, body: { brand_id: brandId, url } });
}

/** Polls the audit until it leaves `running` (the worker is woken at once; 20 s is a generous cap). */
export async function waitForAudit(server: TestServer, tenant: Tenant, id: string, timeoutMs = 20_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await get(server, `/api/mcp/site-audits/${id}`, tenant.key);
    if (res.status !== 200) throw new Error(`GET audit ${id}: ${res.status} ${JSON.stringify(res.body)}`);
    if (res.body.status !== 'running') return res.body;
    if (Date.now() > until) throw new Error(`audit ${id} still running after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts an audit, checks the immediate answer, and returns the finished audit. */
export async function runAudit(t: any, server: TestServer, tenant: Tenant, url: string): Promise<any> {
  const started = await startAudit(server, tenant, url);
  t.is(started.status, 200, JSON.stringify(started.body));
  t.deepEqual(started.body, { id: started.body.id, brandId: tenant.brandId, url, status: 'running' });
  return waitForAudit(server, tenant, started.body.id);
}

export const signal = (audit: any, key: string) => audit.signals.find((s: any) => s.key === key);

export async function quota(server: TestServer, tenant: Tenant) {
  return (await get(server, '/api/mcp/site-audits/quota', tenant.key)).body;
}
