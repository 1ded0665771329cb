// Which IP addresses an outbound request (site audit, webhook) may reach. Only public unicast
// addresses pass; everything that leads into the service's own network or a cloud metadata
// service is refused. Addresses that embed an IPv4 address (IPv4-mapped, NAT64, 6to4, ...) are
// judged by the IPv4 address inside them.
import ipaddr from 'ipaddr.js';

/** Metadata services reachable from cloud instances; named so the refusal says what it is. */
const METADATA = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', '192.0.0.192', 'fd00:ec2::254']);

const IPV4_REASONS: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address',
  private: 'a private network address',
  reserved: 'a reserved address',
  as112: 'a reserved (AS112) address',
  amt: 'a reserved (AMT) address',
};

const IPV6_REASONS: Record<string, string> = {
  unspecified: 'an unspecified address',
  linkLocal: 'a link-local address',
  multicast: 'a multicast address',
  loopback: 'a loopback address',
  uniqueLocal: 'a unique local (private) address',
  deprecatedSiteLocal: 'a site-local (private) address',
  discard: 'a discard-only address',
  teredo: 'a Teredo tunnel address',
  benchmarking: 'a benchmarking address',
  amt: 'a reserved (AMT) address',
  as112v6: 'a reserved (AS112) address',
  deprecatedOrchid: 'a reserved (ORCHID) address',
  orchid2: 'a reserved (ORCHID) address',
  droneRemoteIdProtocolEntityTags: 'a reserved address',
  segmentRouting: 'a segment-routing address',
  reserved: 'a reserved address',
};

function ipv4Reason(v4: ipaddr.IPv4): string | null {
  if (METADATA.has(v4.toString())) return 'a cloud metadata address';
  const range = v4.range();
  return range === 'unicast' ? null : (IPV4_REASONS[range] ?? `a ${range} address`);
}

/** The IPv4 address carried inside an IPv6 one, for the ranges that carry one. */
function embeddedIpv4(v6: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = v6.parts;
  const range = v6.range();
  const fromWords = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (range === 'ipv4Mapped') return v6.toIPv4Address();
  // ::ffff:0:a.b.c.d (RFC 6145) and 64:ff9b::a.b.c.d / 64:ff9b:1::/48 (NAT64, RFC 6052 / 8215).
  if (range === 'rfc6145' || range === 'rfc6052') return fromWords(p[6], p[7]);
  // 2002:AABB:CCDD::/48 (6to4) routes to the IPv4 address AA.BB.CC.DD.
  if (range === '6to4') return fromWords(p[1], p[2]);
  // ::a.b.c.d, the deprecated IPv4-compatible form (:: and ::1 have their own ranges).
  if (p.slice(0, 6).every((w) => w === 0) && range !== 'unspecified' && range !== 'loopback') return fromWords(p[6], p[7]);
  return null;
}

/**
 * Why `ip` may not be reached (e.g. `a loopback address`), or null when it is a public unicast
 * address. Anything that does not parse as an IP address is refused.
 */
export function blockedReason(ip: string): string | null {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  // Zone ids (fe80::1%eth0) only exist on link-local addresses: strip and judge the address.
  const noZone = bare.split('%')[0];
  if (!ipaddr.isValid(noZone)) return 'not an IP address';
  const addr = ipaddr.parse(noZone);
  if (addr.kind() === 'ipv4') return ipv4Reason(addr as ipaddr.IPv4);
  const v6 = addr as ipaddr.IPv6;
  if (METADATA.has(v6.toString())) return 'a cloud metadata address';
  const inner = embeddedIpv4(v6);
  if (inner) {
    const why = ipv4Reason(inner);
    return why ? `${why} (${inner.toString()} inside an IPv6 address)` : null;
  }
  const range = v6.range();
  return range === 'unicast' ? null : (IPV6_REASONS[range] ?? `a ${range} address`);
}

/** Strict IPv4 dotted-quad or IPv6 literal (what URL hostnames hold after WHATWG parsing). */
export function isIpLiteral(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return ipaddr.IPv4.isValidFourPartDecimal(bare) || (bare.includes(':') && ipaddr.IPv6.isValid(bare));
}
