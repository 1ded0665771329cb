// Who is asking (docs/operations.md, "Behind a proxy"): every per-address limit (API, sign-in,
// forms, OAuth registration, collect, crawler logs) counts by this address. With TRUST_PROXY=N the
// service trusts N proxies in front of it: the client address is the Nth entry from the right of
// X-Forwarded-For, the one the outermost trusted proxy wrote. Entries further left were written by
// the client itself (or by proxies it chose), so believing the leftmost would let anyone pick
// the address they are counted as. Fewer entries than N: the connection's own address.
import { isIP } from 'node:net';

export function clientAddress(forwardedFor: string, connection: string, trustedProxies: number): string {
  const written = writtenByProxy(forwardedFor, trustedProxies);
  return written && isIP(written) ? written : connection;
}

/**
 * The entry the outermost of N trusted proxies wrote in a header each of them appends to
 * (X-Forwarded-For, X-Forwarded-Host): the Nth from the right. Undefined with N = 0 or fewer entries
 * than N: the caller takes what the connection itself says.
 */
export function writtenByProxy(header: string, trustedProxies: number): string | undefined {
  if (trustedProxies < 1 || !header) return undefined;
  const entries = header
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  return entries.length < trustedProxies ? undefined : entries[entries.length - trustedProxies];
}
