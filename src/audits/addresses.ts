// Which IP addresses an outbound request (site audit, webhook) may reach. Only public unicast
// addresses pass; everything that leads into the service's own network or a cloud metadata
// service is refused. Addresses that embed an IPv4 address (IPv4-mapped, NAT64, 6to4, ...) are
// judged by the IPv4 address inside them.
//
// Two wordings of a refusal: blockedReason() is the detailed one, for the server's logs and for
// address policies; refusedAs() is what a tenant reads, the class of the address only. Naming the
// address a host name resolved to would let a tenant map the deployment's internal names
// (docs/api.md section 9), so no message a tenant can read is built from anything else.
import ipaddr from 'ipaddr.js';

/** Metadata services reachable from cloud instances; named so the server's log says what it is. */
const METADATA = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', '192.0.0.192', 'fd00:ec2::254']);

/** The classes a tenant is told, few on purpose: enough to fix a URL, too coarse to map a network. */
export type AddressClass = 'a loopback address' | 'a private address' | 'a link-local address' | 'a reserved address';

const LOOPBACK: AddressClass = 'a loopback address';
const PRIVATE: AddressClass = 'a private address';
const LINK_LOCAL: AddressClass = 'a link-local address';
const RESERVED: AddressClass = 'a reserved address';

/** Per ipaddr.js range: the detailed reason, and the class a tenant reads (RESERVED when absent). */
const IPV4_REASONS: Record<string, [string, AddressClass?]> = {
  unspecified: ['an unspecified address'],
  broadcast: ['a broadcast address'],
  multicast: ['a multicast address'],
  linkLocal: ['a link-local address', LINK_LOCAL],
  loopback: ['a loopback address', LOOPBACK],
  carrierGradeNat: ['a carrier-grade NAT address', PRIVATE],
  private: ['a private network address', PRIVATE],
  reserved: ['a reserved address'],
  as112: ['a reserved (AS112) address'],
  amt: ['a reserved (AMT) address'],
};

const IPV6_REASONS: Record<string, [string, AddressClass?]> = {
  unspecified: ['an unspecified address'],
  linkLocal: ['a link-local address', LINK_LOCAL],
  multicast: ['a multicast address'],
  loopback: ['a loopback address', LOOPBACK],
  uniqueLocal: ['a unique local (private) address', PRIVATE],
  deprecatedSiteLocal: ['a site-local (private) address', PRIVATE],
  discard: ['a discard-only address'],
  teredo: ['a Teredo tunnel address'],
  benchmarking: ['a benchmarking address'],
  amt: ['a reserved (AMT) address'],
  as112v6: ['a reserved (AS112) address'],
  deprecatedOrchid: ['a reserved (ORCHID) address'],
  orchid2: ['a reserved (ORCHID) address'],
  droneRemoteIdProtocolEntityTags: ['a reserved address'],
  segmentRouting: ['a segment-routing address'],
  reserved: ['a reserved address'],
};

interface Verdict {
  reason: string;
  cls: AddressClass;
}

/** A range's verdict; a range ipaddr.js adds later is refused as reserved. */
function verdictOf(table: Record<string, [string, AddressClass?]>, range: string): Verdict {
  const [reason, cls] = table[range] ?? [`a ${range} address`];
  return { reason, cls: cls ?? RESERVED };
}

/** The metadata addresses are told to a tenant by the class of their range, like any other. */
function metadata(cls: AddressClass): Verdict {
  return { reason: 'a cloud metadata address', cls };
}

function ipv4Verdict(v4: ipaddr.IPv4): Verdict | null {
  const range = v4.range();
  if (METADATA.has(v4.toString())) return metadata(verdictOf(IPV4_REASONS, range).cls);
  return range === 'unicast' ? null : verdictOf(IPV4_REASONS, range);
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
  if (p.slice(0, 6).every((w) => w === 0) && range !== 'unspecified' && range !== 'loopback')
    return fromWords(p[6], p[7]);
  return null;
}

/** `ip` parsed, in brackets or not, or null when it is not an IP address. */
function parseIp(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  // Zone ids (fe80::1%eth0) only exist on link-local addresses: strip and judge the address.
  const noZone = bare.split('%')[0];
  return ipaddr.isValid(noZone) ? ipaddr.parse(noZone) : null;
}

/** The verdict on a parsed address, or null for a public unicast one. */
function verdict(addr: ipaddr.IPv4 | ipaddr.IPv6): Verdict | null {
  if (addr.kind() === 'ipv4') return ipv4Verdict(addr as ipaddr.IPv4);
  const v6 = addr as ipaddr.IPv6;
  const range = v6.range();
  if (METADATA.has(v6.toString())) return metadata(verdictOf(IPV6_REASONS, range).cls);
  const inner = embeddedIpv4(v6);
  if (inner) {
    const v = ipv4Verdict(inner);
    return v && { ...v, reason: `${v.reason} (${inner.toString()} inside an IPv6 address)` };
  }
  return range === 'unicast' ? null : verdictOf(IPV6_REASONS, range);
}

/**
 * Why `ip` may not be reached (e.g. `a loopback address`), or null when it is a public unicast
 * address. Anything that does not parse as an IP address is refused. Detailed, and may name an
 * address: for the server's logs, never for a tenant (see refusedAs).
 */
export function blockedReason(ip: string): string | null {
  const addr = parseIp(ip);
  if (!addr) return 'not an IP address';
  return verdict(addr)?.reason ?? null;
}

/** The class of a refused address as a tenant reads it, or null for a public or unparsable one. */
export function addressClass(ip: string): AddressClass | null {
  const addr = parseIp(ip);
  return addr && (verdict(addr)?.cls ?? null);
}

/**
 * The one wording of a refusal a tenant reads, for `host` (as in the URL) refused because of
 * `ip` (what it is or resolved to): `intranet.example resolves to a private address`, or
 * `the host is a loopback address` for an IP literal. Never the address, typed or resolved.
 */
export function refusedAs(host: string, ip: string): string {
  // A custom policy (tests) may refuse an address the default one admits.
  const cls = addressClass(ip) ?? 'an address that is not allowed';
  return isIpLiteral(host) ? `the host is ${cls}` : `${host} resolves to ${cls}`;
}

/** Strict IPv4 dotted-quad or IPv6 literal (what URL hostnames hold after WHATWG parsing). */
export function isIpLiteral(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return ipaddr.IPv4.isValidFourPartDecimal(bare) || (bare.includes(':') && ipaddr.IPv6.isValid(bare));
}
