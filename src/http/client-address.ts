// Who is asking (docs/operations.md, "Behind a proxy"): every per-address limit (API, sign-in,
// forms, OAuth registration, collect, crawler logs) counts by this address. With TRUST_PROXY=N the
// service trusts N proxies in front of it: the client address is the Nth entry from the right of
// X-Forwarded-For, the one the outermost trusted proxy wrote. Entries further left were written by
// the client itself (or by proxies it chose), so believing the leftmost would let anyone pick
// the address they are counted as. Fewer entries than N: the connection's own address.
import { isIP } from 'node:net';

export function clientAddress(forwardedFor: string, connection: string, trustedProxies: number): string {
  if (trustedProxies < 1 || !forwardedFor) return connection;
  const entries = forwardedFor
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length < trustedProxies) return connection;
  const written = entries[entries.length - trustedProxies];
  return isIP(written) ? written : connection;
}
