// Which IP addresses a webhook must not reach. A service that POSTs to URLs its
// customers type in would otherwise be a proxy into its own network: loopback
// admin ports, the cloud metadata service at 169.254.169.254, databases on 10/8.

/** [first address as a 32-bit number, prefix length] of every IPv4 block refused. */
const IPV4_BLOCKS: readonly (readonly [number, number])[] = [
  [ipv4(0, 0, 0, 0), 8], // "this network"; 0.0.0.0 reaches the local host on Linux
  [ipv4(10, 0, 0, 0), 8], // private
  [ipv4(100, 64, 0, 0), 10], // carrier-grade NAT (and some clouds' metadata, 100.100.100.200)
  [ipv4(127, 0, 0, 0), 8], // loopback
  [ipv4(169, 254, 0, 0), 16], // link-local: cloud metadata services
  [ipv4(172, 16, 0, 0), 12], // private
  [ipv4(192, 0, 0, 0), 24], // IETF protocol assignments
  [ipv4(192, 168, 0, 0), 16], // private
  [ipv4(198, 18, 0, 0), 15], // benchmarking
  [ipv4(224, 0, 0, 0), 4], // multicast
  [ipv4(240, 0, 0, 0), 4], // reserved, and 255.255.255.255 (broadcast)
];

function ipv4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

function isPrivateIpv4(address: number): boolean {
  return IPV4_BLOCKS.some(([first, prefix]) => address >>> (32 - prefix) === first >>> (32 - prefix));
}

/** A dotted-quad IPv4 address as a 32-bit number; `undefined` for anything else. */
export function parseIpv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const byte = Number(part);
    if (byte > 255) return undefined;
    value = value * 256 + byte;
  }
  return value;
}

/** An IPv6 address (optionally with a `%zone` and an embedded dotted IPv4 tail) as eight 16-bit groups. */
export function parseIpv6(text: string): number[] | undefined {
  const zone = text.indexOf('%');
  let rest = zone === -1 ? text : text.slice(0, zone);
  // A trailing dotted IPv4 (`::ffff:127.0.0.1`) stands for the last two groups: rewrite it as them.
  const lastColon = rest.lastIndexOf(':');
  if (lastColon !== -1 && rest.includes('.', lastColon)) {
    const v4 = parseIpv4(rest.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    rest = `${rest.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = rest.split('::');
  if (halves.length > 2) return undefined;
  const parse = (half: string): number[] | undefined => {
    if (half === '') return [];
    const out: number[] = [];
    for (const group of half.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return undefined;
      out.push(Number.parseInt(group, 16));
    }
    return out;
  };
  const head = parse(halves[0] ?? '');
  const back = halves.length === 2 ? parse(halves[1] ?? '') : [];
  if (head === undefined || back === undefined) return undefined;
  const explicit = head.length + back.length;
  if (halves.length === 1) return explicit === 8 ? head : undefined;
  // `::` stands for at least one group of zeros.
  return explicit > 7 ? undefined : [...head, ...new Array<number>(8 - explicit).fill(0), ...back];
}

function isPrivateIpv6(groups: readonly number[]): boolean {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const embedded = ((g6 << 16) | g7) >>> 0;
  const upperZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0;
  // ::/96 (:: unspecified, ::1 loopback, deprecated IPv4-compatible) and
  // ::ffff:0:0/96 (IPv4-mapped): the IPv4 address inside decides (0.0.0.0/8 covers :: and ::1).
  if (upperZero && g4 === 0 && (g5 === 0 || g5 === 0xffff)) return isPrivateIpv4(embedded);
  // ::ffff:0:0:0/96 (SIIT, IPv4-translated) likewise.
  if (upperZero && g4 === 0xffff && g5 === 0) return isPrivateIpv4(embedded);
  // 64:ff9b::/96, NAT64: a gateway connects to the IPv4 address inside.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return isPrivateIpv4(embedded);
  // 64:ff9b:1::/48, NAT64 for local use.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return true;
  // 2002::/16, 6to4: the relay reaches the IPv4 address in groups 1–2.
  if (g0 === 0x2002) return isPrivateIpv4(((g1 << 16) | g2) >>> 0);
  // 2001::/32, Teredo: carries an obfuscated IPv4 client address; nobody needs it for webhooks.
  if (g0 === 0x2001 && g1 === 0) return true;
  // 100::/64, discard-only.
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return true;
  if ((g0 & 0xfe00) === 0xfc00) return true; // fc00::/7, unique local
  if ((g0 & 0xffc0) === 0xfe80) return true; // fe80::/10, link-local
  if ((g0 & 0xffc0) === 0xfec0) return true; // fec0::/10, site-local (deprecated)
  if ((g0 & 0xff00) === 0xff00) return true; // ff00::/8, multicast
  return false;
}

/**
 * Whether an IP address, as text (`10.0.0.1`, `::ffff:127.0.0.1`, `fe80::1%eth0`),
 * is one a webhook must not reach: private, loopback, link-local, multicast,
 * unspecified, reserved, or an IPv6 form that embeds such an IPv4 address.
 * Text that is no IP address gives `undefined`.
 */
export function isPrivateAddress(address: string): boolean | undefined {
  const v4 = parseIpv4(address);
  if (v4 !== undefined) return isPrivateIpv4(v4);
  const v6 = address.includes(':') ? parseIpv6(address) : undefined;
  return v6 === undefined ? undefined : isPrivateIpv6(v6);
}

/**
 * Whether a URL's host, as WHATWG `URL` gives it, names a refused address
 * without any DNS: an IP literal (the URL parser has already turned
 * `2130706433`, `0x7f.1` and `0177.0.0.1` into `127.0.0.1`, and
 * `[::ffff:127.0.0.1]` into `[::ffff:7f00:1]`), or `localhost` and its
 * subdomains, which RFC 6761 reserves for loopback.
 */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  const literal = isPrivateAddress(host);
  if (literal !== undefined) return literal;
  const name = (host.endsWith('.') ? host.slice(0, -1) : host).toLowerCase();
  return name === 'localhost' || name.endsWith('.localhost');
}
