import { describe, expect, it } from 'vitest';
import { addressOwner, isLoopbackAddress, isPublicAddress } from './ip-address.ts';

describe('isPublicAddress', () => {
  it.each([
    ['IPv4 loopback', '127.0.0.1'],
    ['the far end of 127/8', '127.255.255.254'],
    ['the unspecified address', '0.0.0.0'],
    ['"this network"', '0.1.2.3'],
    ['RFC 1918 10/8', '10.0.0.1'],
    ['RFC 1918 172.16/12', '172.16.0.1'],
    ['RFC 1918 172.16/12, last', '172.31.255.255'],
    ['RFC 1918 192.168/16', '192.168.1.1'],
    ['carrier-grade NAT', '100.64.0.1'],
    ['carrier-grade NAT, last', '100.127.255.255'],
    ['link-local', '169.254.1.1'],
    ['the cloud metadata service', '169.254.169.254'],
    ['IETF protocol assignments', '192.0.0.192'],
    ['documentation', '192.0.2.10'],
    ['benchmarking', '198.19.0.1'],
    ['multicast', '224.0.0.251'],
    ['reserved', '240.0.0.1'],
    ['broadcast', '255.255.255.255'],
    ['IPv6 loopback', '::1'],
    ['IPv6 loopback in brackets', '[::1]'],
    ['IPv6 unspecified', '::'],
    ['unique local', 'fc00::1'],
    ['unique local fd00::/8', 'fd12:3456:789a::1'],
    ['the AWS metadata service over IPv6', 'fd00:ec2::254'],
    ['IPv6 link-local', 'fe80::1'],
    ['IPv6 link-local with a zone', 'fe80::1%eth0'],
    ['IPv6 link-local, far end of fe80::/10', 'febf::1'],
    ['site-local', 'fec0::1'],
    ['IPv6 multicast', 'ff02::1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped loopback in hex', '::ffff:7f00:1'],
    ['IPv4-mapped metadata', '::ffff:169.254.169.254'],
    ['IPv4-mapped private, fully written', '0:0:0:0:0:ffff:a00:1'],
    ['IPv4-compatible loopback', '::127.0.0.1'],
    ['NAT64 of loopback', '64:ff9b::7f00:1'],
    ['6to4 of a private address', '2002:c0a8:101::1'],
    ['Teredo', '2001:0:4136:e378::1'],
    ['IPv6 documentation', '2001:db8::1'],
    ['a hostname', 'localhost'],
    ['an empty string', ''],
    ['a malformed IPv4', '127.0.0.01'],
    ['a malformed IPv6', '1::2::3'],
  ])('refuses %s (%s)', (_, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ['a public IPv4', '93.184.215.14'],
    ['just below 10/8', '9.255.255.255'],
    ['just above 172.16/12', '172.32.0.1'],
    ['just below CGNAT', '100.63.255.255'],
    ['just above CGNAT', '100.128.0.1'],
    ['just below multicast', '223.255.255.254'],
    ['a public IPv6', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    ['a public IPv6 in brackets', '[2a00:1450:4001:82b::200e]'],
    ['IPv4-mapped public', '::ffff:93.184.215.14'],
    ['NAT64 of a public address', '64:ff9b::5db8:d70e'],
    ['6to4 of a public address', '2002:5db8:d70e::1'],
  ])('accepts %s (%s)', (_, address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('addressOwner', () => {
  it.each([
    ['an IPv4 address is itself', '203.0.113.7', '203.0.113.7'],
    ['an IPv6 address is its /64', '2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['however it is written', '2001:0DB8:0001:0002:ffff:0:0:9', '2001:db8:1:2::/64'],
    ['in brackets, with a zone', '[2001:db8:1:2:3:4:5:6%eth0]', '2001:db8:1:2::/64'],
    ['a short prefix', '2001:db8::1', '2001:db8:0:0::/64'],
    ['IPv6 loopback', '::1', '0:0:0:0::/64'],
    ['an IPv4-mapped address is its IPv4 address', '::ffff:198.51.100.4', '198.51.100.4'],
    ['an IPv4-mapped address in hex', '::ffff:c633:6404', '198.51.100.4'],
    ['not an address', 'unknown', 'unknown'],
  ])('%s', (_, address, owner) => {
    expect(addressOwner(address)).toBe(owner);
  });

  it('gives every address of one /64 the same owner, and neighbouring /64s different ones', () => {
    const owners = ['2001:db8:a:b::1', '2001:db8:a:b:ffff:ffff:ffff:ffff', '2001:db8:a:b:1234::5'].map(addressOwner);
    expect(new Set(owners).size).toBe(1);
    expect(addressOwner('2001:db8:a:c::1')).not.toBe(owners[0]);
  });
});

describe('isLoopbackAddress', () => {
  it.each(['127.0.0.1', '127.8.9.10', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '::ffff:7f00:2'])(
    '%s is this machine',
    (address) => expect(isLoopbackAddress(address)).toBe(true),
  );
  it.each(['128.0.0.1', '10.0.0.1', '::2', '::', 'fe80::1', '::ffff:10.0.0.1', '::127.0.0.1', 'localhost', ''])(
    '%s is not',
    (address) => expect(isLoopbackAddress(address)).toBe(false),
  );
});
