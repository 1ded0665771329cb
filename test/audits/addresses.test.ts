// The address policy of the safe fetcher: which IPv4 and IPv6 addresses may be reached.
// test-process: shared
import test from 'ava';
import { addressClass, blockedReason, isIpLiteral, refusedAs } from '../../src/audits/addresses.ts';

const refused: [string, RegExp][] = [
  // IPv4
  ['127.0.0.1', /loopback/],
  ['127.255.0.9', /loopback/],
  ['10.0.0.1', /private/],
  ['172.16.5.4', /private/],
  ['172.31.255.255', /private/],
  ['192.168.1.1', /private/],
  ['169.254.1.1', /link-local/],
  ['169.254.169.254', /cloud metadata/],
  ['100.100.100.200', /cloud metadata/],
  ['100.64.0.1', /carrier-grade NAT/],
  ['100.127.255.254', /carrier-grade NAT/],
  ['0.0.0.0', /unspecified/],
  ['224.0.0.251', /multicast/],
  ['239.255.255.250', /multicast/],
  ['255.255.255.255', /broadcast/],
  ['192.0.2.10', /reserved/],
  ['198.18.0.1', /reserved/],
  ['240.0.0.1', /reserved/],
  // IPv6
  ['::1', /loopback/],
  ['[::1]', /loopback/],
  ['::', /unspecified/],
  ['fe80::1', /link-local/],
  ['fe80::1%eth0', /link-local/],
  ['fc00::1', /unique local/],
  ['fd12:3456::1', /unique local/],
  ['fd00:ec2::254', /cloud metadata/],
  ['ff02::1', /multicast/],
  ['fec0::1', /site-local/],
  ['2001:db8::1', /reserved/],
  // IPv6 forms that carry an IPv4 address are judged by it.
  ['::ffff:127.0.0.1', /loopback address \(127\.0\.0\.1 inside an IPv6 address\)/],
  ['::ffff:7f00:1', /loopback/],
  ['::ffff:10.0.0.1', /private/],
  ['::ffff:169.254.169.254', /cloud metadata/],
  ['64:ff9b::7f00:1', /loopback/],
  ['64:ff9b::a00:1', /private/],
  ['2002:7f00:1::1', /loopback/],
  ['2002:c0a8:101::1', /private/],
  ['::7f00:1', /loopback/],
  ['2001::1', /Teredo/],
  // Not an address at all.
  ['example.com', /not an IP address/],
  ['', /not an IP address/],
];

for (const [ip, why] of refused) {
  test(`refuses ${ip || '(empty)'}`, (t) => {
    t.regex(blockedReason(ip) ?? 'allowed', why);
  });
}

const allowed = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '100.63.255.255',
  '100.128.0.1',
  '172.15.0.1',
  '172.32.0.1',
  '169.253.1.1',
  '2606:4700:4700::1111',
  '2a00:1450:4001:80b::200e',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
  '2002:808:808::1',
];

for (const ip of allowed) {
  test(`allows public ${ip}`, (t) => {
    t.is(blockedReason(ip), null);
  });
}

test('isIpLiteral recognises the host forms URL parsing produces', (t) => {
  t.true(isIpLiteral('127.0.0.1'));
  t.true(isIpLiteral('[::1]'));
  t.true(isIpLiteral('::ffff:7f00:1'));
  t.false(isIpLiteral('localhost'));
  t.false(isIpLiteral('example.com'));
  // WHATWG URL turns the odd IPv4 spellings into dotted quads before we see them.
  t.is(new URL('http://2130706433/').hostname, '127.0.0.1');
  t.is(new URL('http://0x7f.1/').hostname, '127.0.0.1');
  t.is(blockedReason(new URL('http://0177.0.0.1/').hostname), 'a loopback address');
});

// What a tenant reads: a small set of classes, worded in one place, and never the address
// (docs/api.md section 9). The detailed reason above stays for the server's logs.
const CLASSES = ['a loopback address', 'a private address', 'a link-local address', 'a reserved address'];

for (const [ip] of refused.filter(([ip]) => ip && ip !== 'example.com')) {
  test(`${ip} is refused to a tenant by class only`, (t) => {
    t.true(CLASSES.includes(addressClass(ip) ?? 'none'), addressClass(ip) ?? 'none');
    t.is(refusedAs('internal.example', ip), `internal.example resolves to ${addressClass(ip)}`);
    t.is(refusedAs(ip, ip), `the host is ${addressClass(ip)}`);
    t.notRegex(refusedAs('internal.example', ip), /\d|::/);
    t.notRegex(refusedAs(ip, ip), /\d|::/);
  });
}

test('the classes a tenant reads', (t) => {
  t.is(addressClass('127.0.0.1'), 'a loopback address');
  t.is(addressClass('::ffff:127.0.0.1'), 'a loopback address');
  t.is(addressClass('10.0.0.1'), 'a private address');
  t.is(addressClass('100.64.0.1'), 'a private address');
  t.is(addressClass('fd12:3456::1'), 'a private address');
  t.is(addressClass('169.254.169.254'), 'a link-local address');
  t.is(addressClass('fe80::1%eth0'), 'a link-local address');
  t.is(addressClass('224.0.0.251'), 'a reserved address');
  t.is(addressClass('8.8.8.8'), null);
  // A name is judged by what it resolves to; an IPv6 literal in brackets is a literal too.
  t.is(refusedAs('[::1]', '::1'), 'the host is a loopback address');
  // A custom policy may refuse an address the default one admits: still no address in the words.
  t.is(refusedAs('example.com', '8.8.8.8'), 'example.com resolves to an address that is not allowed');
});
