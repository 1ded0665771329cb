// What a host is, wherever one reaches a header or a page: a DNS name (dot-separated labels of
// letters, digits and inner hyphens, RFC 1123) or an IP literal (dotted IPv4, bracketed IPv6). The
// URL parser is looser (it keeps `;`, `,`, `'` and more in a host: `https://a.com;sandbox` has the
// host `a.com;sandbox`), and such a host pasted into a Content-Security-Policy or a
// WWW-Authenticate challenge would write directives or parameters of its own. Everything that
// builds a header from a host checks it here first.

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DNS_NAME = new RegExp(`^(?=.{1,253}$)${LABEL}(?:\\.${LABEL})*$`, 'i');
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const IPV6 = /^\[[0-9a-f:.]{2,45}\]$/i;
const PORT = /^(?:[0-9]|[1-9][0-9]{1,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])$/;

/** A DNS name or an IP literal (IPv6 in brackets, as URLs and Host headers write it). */
export function isHostName(name: string): boolean {
  return DNS_NAME.test(name) || IPV4.test(name) || IPV6.test(name);
}

/** `host` or `host:port`, as a Host header (RFC 9110 section 7.2) or a URL's host carries it. */
export function isHostAndPort(value: string): boolean {
  const colon = value.lastIndexOf(':');
  if (colon > value.lastIndexOf(']')) return isHostName(value.slice(0, colon)) && PORT.test(value.slice(colon + 1));
  return isHostName(value);
}

/** `http(s)://host[:port]` with a well-formed host: safe to write into a header. */
export function isWebOrigin(value: string): boolean {
  const m = /^https?:\/\/(.+)$/.exec(value);
  return m !== null && isHostAndPort(m[1]);
}
