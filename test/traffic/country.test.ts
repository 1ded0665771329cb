// The visit's country: CF-IPCountry, else the offline look-up of the address, else XX.
// test-process: shared
import test from 'ava';
import { countryOfAddress, visitCountry } from '../../src/traffic/country.ts';

test('CF-IPCountry wins when it is a two-letter code', (t) => {
  t.is(visitCountry('DE', '8.8.8.8'), 'DE');
  t.is(visitCountry('fr', undefined), 'FR');
  // Cloudflare's unknown (XX) and Tor (T1), and junk, fall through to the look-up.
  t.is(visitCountry('XX', '8.8.8.8'), 'US');
  t.is(visitCountry('T1', '8.8.8.8'), 'US');
  t.is(visitCountry('USA', '8.8.8.8'), 'US');
  t.is(visitCountry('', '127.0.0.1'), 'XX');
});

test('the address look-up covers IPv4 and IPv4-mapped IPv6; the rest is XX', (t) => {
  t.is(countryOfAddress('8.8.8.8'), 'US');
  t.is(countryOfAddress('81.2.69.142'), 'GB');
  t.is(countryOfAddress('::ffff:8.8.8.8'), 'US');
  for (const ip of [
    '127.0.0.1',
    '10.1.2.3',
    '192.168.0.1',
    '::1',
    '2001:4860:4860::8888',
    '999.1.1.1',
    'nonsense',
    '',
    undefined,
  ]) {
    t.is(countryOfAddress(ip), 'XX', String(ip));
  }
});
