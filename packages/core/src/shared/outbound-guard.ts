// Outbound requests to addresses users choose (webhooks) must not reach the machine's own
// network: loopback, private ranges, link-local (cloud metadata at 169.254.169.254), and so
// on. The check runs on the resolved addresses, and the request then connects to the vetted
// address itself (a pinned `lookup`), so a host that resolves differently the second time
// (DNS rebinding) cannot slip past it.
import { promises as dnsPromises, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';

/** [first address, prefix length] of IPv4 ranges that are not publicly routable. */
const NON_PUBLIC_V4: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
];

const V4_RANGES = NON_PUBLIC_V4.map(([base, bits]) => {
  const mask = bits === 0 ? 0 : (0xffff_ffff << (32 - bits)) >>> 0;
  return { network: (v4ToInt(base)! & mask) >>> 0, mask };
});

function v4ToInt(ip: string): number | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    n = n * 256 + octet;
  }
  return n;
}

function isPublicV4(n: number): boolean {
  return !V4_RANGES.some((r) => ((n & r.mask) >>> 0) === r.network);
}

/** The eight 16-bit groups of an IPv6 address (zone id ignored), or null when it is not one. */
function v6Groups(ip: string): number[] | null {
  let text = ip.replace(/^\[|\]$/g, '');
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  if (isIP(text) !== 6) return null;
  // A trailing dotted IPv4 part (::ffff:127.0.0.1) becomes two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = v4ToInt(dotted[1]!);
    if (v4 === null) return null;
    text = `${text.slice(0, dotted.index)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (s: string) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 0) return null;
  return [...left, ...new Array<number>(missing).fill(0), ...right];
}

function isPublicV6(g: number[]): boolean {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = g as [number, number, number, number, number, number, number, number];
  const embeddedV4 = ((g6 << 16) | g7) >>> 0;
  const firstFiveZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (firstFiveZero && g5 === 0) {
    // :: (unspecified), ::1 (loopback), and the deprecated IPv4-compatible ::a.b.c.d.
    if (g6 === 0 && (g7 === 0 || g7 === 1)) return false;
    return isPublicV4(embeddedV4);
  }
  if (firstFiveZero && g5 === 0xffff) return isPublicV4(embeddedV4); // IPv4-mapped ::ffff:a.b.c.d
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0) return isPublicV4(embeddedV4); // IPv4-translated
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return isPublicV4(embeddedV4); // NAT64 64:ff9b::/96
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return false; // local-use NAT64 64:ff9b:1::/48
  if (g0 === 0x2002) return isPublicV4(((g1 << 16) | g2) >>> 0); // 6to4 carries its IPv4 in bits 16–47
  if (g0 === 0x0100 && g1 === 0 && g2 === 0 && g3 === 0) return false; // discard-only 100::/64
  if (g0 === 0x2001 && g1 === 0x0db8) return false; // documentation 2001:db8::/32
  if ((g0 & 0xffc0) === 0xfe80) return false; // link-local fe80::/10
  if ((g0 & 0xffc0) === 0xfec0) return false; // site-local fec0::/10 (deprecated)
  if ((g0 & 0xfe00) === 0xfc00) return false; // unique-local fc00::/7
  if ((g0 & 0xff00) === 0xff00) return false; // multicast ff00::/8
  return true;
}

/**
 * Whether an IP address (v4 or v6) is publicly routable. False for private, loopback,
 * link-local, CGNAT, "this network", multicast, broadcast, reserved, benchmarking and
 * documentation ranges, the IPv6 loopback, unspecified, link-local, unique-local and
 * multicast ranges, and IPv6 forms that embed a non-public IPv4 address (mapped,
 * compatible, NAT64, 6to4). Anything that is not an IP address is not public either.
 */
export function isPublicAddress(ip: string): boolean {
  const v4 = v4ToInt(ip);
  if (v4 !== null) return isPublicV4(v4);
  const groups = v6Groups(ip);
  return groups !== null && isPublicV6(groups);
}

/** An outbound target that may not be requested: a bad URL, or a host resolving to a non-public address. */
export class OutboundTargetRefused extends Error {
  override readonly name = 'OutboundTargetRefused';
  constructor(
    message: string,
    readonly host: string,
    readonly address: string | null,
  ) {
    super(message);
  }
}

export type LookupAll = (hostname: string, options: { all: true }) => Promise<LookupAddress[]>;

/** Where to connect for a URL: the parsed URL, and the one address it was vetted at. */
export interface PublicTarget {
  url: URL;
  /** The host name without brackets (an IPv6 literal is bare). */
  host: string;
  address: string;
  family: 4 | 6;
}

/**
 * Parses an http(s) URL (any other scheme is refused), resolves its host (an IP literal is
 * taken as is; otherwise `lookup`, by default `dns.promises.lookup(host, { all: true })`)
 * and refuses it when any resolved address is not public, unless `allowPrivate`. Returns
 * the address to connect to: pass `pinnedLookup(target)` as the request's `lookup` so the
 * connection goes there and nowhere else.
 */
export async function resolvePublicTarget(options: { url: string | URL; allowPrivate: boolean; lookup?: LookupAll }): Promise<PublicTarget> {
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw new OutboundTargetRefused(`refused ${String(options.url)}: not a valid URL`, String(options.url), null);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundTargetRefused(`refused ${url.host}: only http and https URLs are allowed, not ${url.protocol.slice(0, -1)}`, url.hostname, null);
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host);
  let addresses: { address: string; family: 4 | 6 }[];
  if (literal) {
    addresses = [{ address: host, family: literal as 4 | 6 }];
  } else {
    const lookup = options.lookup ?? ((h, o) => dnsPromises.lookup(h, o));
    let found: LookupAddress[];
    try {
      found = await lookup(host, { all: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new OutboundTargetRefused(`cannot resolve ${host}: ${code}`, host, null);
    }
    addresses = found.map((a) => ({ address: a.address, family: (a.family === 6 ? 6 : 4) as 4 | 6 }));
    if (!addresses.length) throw new OutboundTargetRefused(`cannot resolve ${host}: no addresses`, host, null);
  }
  if (!options.allowPrivate) {
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad) {
      const shown = bad.address === host ? host : `${host} (${bad.address})`;
      throw new OutboundTargetRefused(
        `refused ${shown}: ${bad.address} is a private, loopback, link-local or reserved address (set ALLOW_PRIVATE_TARGETS=true to allow it)`,
        host,
        bad.address,
      );
    }
  }
  const chosen = addresses[0]!;
  return { url, host, address: chosen.address, family: chosen.family };
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node:http/https `request` (and net.connect) that answers the vetted
 * address whatever it is asked, in the single- or the all-addresses form (Node asks for
 * all when it tries address families in turn).
 */
export function pinnedLookup(target: Pick<PublicTarget, 'address' | 'family'>) {
  return (_hostname: string, options: { all?: boolean } | number | undefined, callback: LookupCallback): void => {
    const all = typeof options === 'object' && options !== null && options.all === true;
    if (all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

/** Where to connect for a bare host (a mail server): the host as given, and the one address it was vetted at. */
export interface PublicHost {
  /** The host without brackets (an IPv6 literal is bare). */
  host: string;
  address: string;
  family: 4 | 6;
}

/**
 * `resolvePublicTarget` for a host without a URL (SMTP and IMAP servers): an IP literal is
 * taken as is, a name is resolved with `lookup` (by default `dns.promises.lookup(host, { all:
 * true })`), and it is refused when any address is not public, unless `allowPrivate`. Throws
 * OutboundTargetRefused: with `address` set for a non-public address, null when the host
 * does not resolve. Connect to `address` itself (and, over TLS, name `host` as the server).
 */
export async function resolvePublicHost(options: { host: string; allowPrivate: boolean; lookup?: LookupAll }): Promise<PublicHost> {
  const host = options.host.trim().replace(/^\[|\]$/g, '');
  if (!host) throw new OutboundTargetRefused('refused: no host', options.host, null);
  const literal = isIP(host);
  let addresses: { address: string; family: 4 | 6 }[];
  if (literal) {
    addresses = [{ address: host, family: literal as 4 | 6 }];
  } else {
    const lookup = options.lookup ?? ((h, o) => dnsPromises.lookup(h, o));
    try {
      addresses = (await lookup(host, { all: true })).map((a) => ({ address: a.address, family: (a.family === 6 ? 6 : 4) as 4 | 6 }));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'lookup failed';
      throw new OutboundTargetRefused(`cannot resolve ${host}: ${code}`, host, null);
    }
    if (!addresses.length) throw new OutboundTargetRefused(`cannot resolve ${host}: no addresses`, host, null);
  }
  if (!options.allowPrivate) {
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad) {
      throw new OutboundTargetRefused(
        `refused ${host}: a private, loopback, link-local or reserved address (set ALLOW_PRIVATE_TARGETS=true to allow it)`,
        host,
        bad.address,
      );
    }
  }
  const chosen = addresses[0]!;
  return { host, address: chosen.address, family: chosen.family };
}
