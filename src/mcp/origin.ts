// DNS-rebinding protection for /api/mcp: a browser always sends `Origin` on a POST, so a request
// carrying one must come from an allowed origin. Clients that are not browsers send none.
// The request's own Host is deliberately not trusted: after DNS rebinding the attacker's page *is*
// same-origin with it.
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Localhost (any port) is always allowed; `allowed` adds origins, or `*` for any. */
export function originAllowed(origin: string | undefined, allowed: readonly string[]): boolean {
  if (!origin) return true;
  if (allowed.includes('*')) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // includes the opaque origin `null`
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return LOCAL_HOSTS.has(url.hostname) || allowed.includes(url.origin);
}
