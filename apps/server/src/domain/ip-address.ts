/**
 * Which IP addresses a server-side fetch of a user-given URL may connect to: only public unicast
 * ones. Everything else (loopback, private, CGNAT, link-local and the cloud metadata services in
 * it, unspecified, multicast, broadcast, documentation and other special-purpose ranges of the IANA
 * registries) could reach a service that trusts the host's own network.
 */

type Range = { base: bigint; bits: number };

const IPV4_BITS = 32;
const IPV6_BITS = 128;

function within(address: bigint, { base, bits }: Range, width: number): boolean {
  const shift = BigInt(width - bits);
  return address >> shift === base >> shift;
}

function parseIpv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    // Only the canonical dotted-decimal form that resolvers and the URL parser produce.
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

/** A range written as its first address and prefix length; a mistyped constant fails at load. */
function cidr(parse: (text: string) => bigint | undefined, text: string, bits: number): Range {
  const base = parse(text);
  if (base === undefined) throw new Error(`Not an IP address: ${text}`);
  return { base, bits };
}

function v4(text: string, bits: number): Range {
  return cidr(parseIpv4, text, bits);
}

const NON_PUBLIC_IPV4: Range[] = [
  v4('0.0.0.0', 8), // "this network", including the unspecified address
  v4('10.0.0.0', 8), // private (RFC 1918)
  v4('100.64.0.0', 10), // carrier-grade NAT (RFC 6598)
  v4('127.0.0.0', 8), // loopback
  v4('169.254.0.0', 16), // link-local, where 169.254.169.254 serves cloud metadata
  v4('172.16.0.0', 12), // private
  v4('192.0.0.0', 24), // IETF protocol assignments
  v4('192.0.2.0', 24), // documentation
  v4('192.88.99.0', 24), // 6to4 relay anycast
  v4('192.168.0.0', 16), // private
  v4('198.18.0.0', 15), // benchmarking
  v4('198.51.100.0', 24), // documentation
  v4('203.0.113.0', 24), // documentation
  v4('224.0.0.0', 4), // multicast
  v4('240.0.0.0', 4), // reserved, including the broadcast address 255.255.255.255
];

function isPublicIpv4(address: bigint): boolean {
  return !NON_PUBLIC_IPV4.some((blocked) => within(address, blocked, IPV4_BITS));
}

function parseGroups(text: string): bigint[] | undefined {
  if (text === '') return [];
  const groups: bigint[] = [];
  const parts = text.split(':');
  for (const [index, part] of parts.entries()) {
    if (index === parts.length - 1 && part.includes('.')) {
      const tail = parseIpv4(part);
      if (tail === undefined) return undefined;
      groups.push(tail >> 16n, tail & 0xffffn);
    } else if (/^[0-9a-f]{1,4}$/i.test(part)) {
      groups.push(BigInt(`0x${part}`));
    } else {
      return undefined;
    }
  }
  return groups;
}

function parseIpv6(text: string): bigint | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = parseGroups(halves[0] ?? '');
  const tail = halves.length === 2 ? parseGroups(halves[1] ?? '') : [];
  if (head === undefined || tail === undefined) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array<bigint>(missing).fill(0n), ...tail];
  return groups.reduce((value, group) => (value << 16n) | group, 0n);
}

function v6(text: string, bits: number): Range {
  return cidr(parseIpv6, text, bits);
}

/** Ranges that carry an IPv4 address, and where in the 128 bits it sits. */
const EMBEDDING_IPV4: { range: Range; shift: bigint }[] = [
  { range: v6('::ffff:0:0', 96), shift: 0n }, // IPv4-mapped
  { range: v6('64:ff9b::', 96), shift: 0n }, // NAT64
  { range: v6('2002::', 16), shift: 80n }, // 6to4
];

/** Global unicast is 2000::/3; these parts of it are not the public Internet. */
const GLOBAL_UNICAST = v6('2000::', 3);
const NON_PUBLIC_GLOBAL_IPV6: Range[] = [
  v6('2001::', 23), // IETF protocol assignments, including Teredo
  v6('2001:db8::', 32), // documentation
  v6('3fff::', 20), // documentation
];

function isPublicIpv6(address: bigint): boolean {
  for (const { range: embedding, shift } of EMBEDDING_IPV4) {
    if (within(address, embedding, IPV6_BITS)) return isPublicIpv4((address >> shift) & 0xffffffffn);
  }
  // Outside 2000::/3 lie ::, ::1, IPv4-compatible, discard-only, ULA (fc00::/7, with the metadata
  // service fd00:ec2::254), link-local (fe80::/10), site-local and multicast (ff00::/8).
  if (!within(address, GLOBAL_UNICAST, IPV6_BITS)) return false;
  return !NON_PUBLIC_GLOBAL_IPV6.some((blocked) => within(address, blocked, IPV6_BITS));
}

/** The address without brackets or a zone. */
function bare(address: string): string {
  return address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
}

/**
 * Whether `address` (IPv4 dotted-decimal or IPv6, with or without brackets or a zone) is a public
 * unicast address. Anything that is not an IP address is not.
 */
export function isPublicAddress(address: string): boolean {
  const text = bare(address);
  const ipv4 = parseIpv4(text);
  if (ipv4 !== undefined) return isPublicIpv4(ipv4);
  const ipv6 = text.includes(':') ? parseIpv6(text) : undefined;
  return ipv6 !== undefined && isPublicIpv6(ipv6);
}

const IPV4_MAPPED = v6('::ffff:0:0', 96);

/**
 * Who a client address belongs to, as limits count callers: an IPv4 address is one caller, and so
 * is an IPv6 /64, the smallest block a provider hands a single line or host (RFC 6177), whose
 * 2^64 addresses would otherwise each get a budget of their own. An IPv4-mapped IPv6 address is
 * its IPv4 address. Anything else is kept as it is.
 */
export function addressOwner(address: string): string {
  const text = bare(address);
  if (parseIpv4(text) !== undefined) return text;
  const ipv6 = text.includes(':') ? parseIpv6(text) : undefined;
  if (ipv6 === undefined) return address;
  if (within(ipv6, IPV4_MAPPED, IPV6_BITS)) {
    return [24n, 16n, 8n, 0n].map((shift) => String((ipv6 >> shift) & 0xffn)).join('.');
  }
  const groups = [112n, 96n, 80n, 64n].map((shift) => ((ipv6 >> shift) & 0xffffn).toString(16));
  return `${groups.join(':')}::/64`;
}

const IPV4_LOOPBACK = v4('127.0.0.0', 8);
const IPV6_LOOPBACK = v6('::1', 128);

/** Whether `address` is this machine's own: 127.0.0.0/8, ::1, or 127/8 mapped into IPv6. */
export function isLoopbackAddress(address: string): boolean {
  const text = bare(address);
  const ipv4 = parseIpv4(text);
  if (ipv4 !== undefined) return within(ipv4, IPV4_LOOPBACK, IPV4_BITS);
  const ipv6 = text.includes(':') ? parseIpv6(text) : undefined;
  if (ipv6 === undefined) return false;
  if (within(ipv6, IPV4_MAPPED, IPV6_BITS)) return within(ipv6 & 0xffffffffn, IPV4_LOOPBACK, IPV4_BITS);
  return within(ipv6, IPV6_LOOPBACK, IPV6_BITS);
}
