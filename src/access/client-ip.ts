import { BlockList, isIP } from 'node:net';

/**
 * The client address behind trusted reverse proxies. `X-Forwarded-For` is honoured only when the socket peer is a
 * trusted proxy; it is then walked right to left, skipping trusted hops, and the first untrusted address is the
 * client. Anything the client wrote further left is ignored, so it cannot pick its own address. An entry that is not
 * an address ends the walk at the last hop that was trusted. Several `X-Forwarded-For` headers read as one list.
 */
export function clientIp(
  socketAddr: string,
  header: string | readonly string[] | undefined,
  trustedProxies: readonly string[],
): string {
  const xff = typeof header === 'string' || header === undefined ? header : header.join(',');
  const peer = normalizeIp(socketAddr) ?? socketAddr;
  if (!xff || trustedProxies.length === 0) return peer;
  const trusted = matcherFor(trustedProxies);
  if (!trusted(peer)) return peer;
  let client = peer;
  const hops = xff.split(',');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeIp(hops[i] ?? '');
    if (hop === null) break;
    client = hop;
    if (!trusted(hop)) break;
  }
  return client;
}

/** `TRUSTED_PROXIES`: comma-separated addresses and CIDRs (`10.0.0.0/8, 127.0.0.1, ::1, fd00::/8`). Validated. */
export function parseTrustedProxies(env: string | undefined): string[] {
  const list = (env ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  matcherFor(list); // throws on a bad entry
  return list;
}

/**
 * An address in canonical form: `::ffff:1.2.3.4` → `1.2.3.4`, `[::1]:443` → `::1`, `1.2.3.4:80` → `1.2.3.4`,
 * IPv6 lower-cased. Null when it is not an address.
 */
export function normalizeIp(raw: string): string | null {
  let s = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(s);
  if (bracketed?.[1]) s = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(s)) s = s.slice(0, s.indexOf(':'));
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(s);
  if (mapped?.[1]) s = mapped[1];
  const v = isIP(s);
  if (v === 4) return s;
  if (v === 6) return s.toLowerCase();
  return null;
}

type Matcher = (addr: string) => boolean;
const compiled = new WeakMap<readonly string[], Matcher>();

function matcherFor(list: readonly string[]): Matcher {
  let m = compiled.get(list);
  if (!m) compiled.set(list, (m = compile(list)));
  return m;
}

function compile(list: readonly string[]): Matcher {
  const block = new BlockList();
  for (const entry of list) {
    const [addrPart, bitsPart, extra] = entry.trim().split('/');
    const addr = normalizeIp(addrPart ?? '');
    const family = addr === null ? 0 : isIP(addr);
    const max = family === 4 ? 32 : 128;
    const bits = bitsPart === undefined ? max : Number(bitsPart);
    if (
      addr === null ||
      extra !== undefined ||
      (bitsPart !== undefined && !/^\d+$/.test(bitsPart)) ||
      !(bits >= 0 && bits <= max)
    ) {
      throw new Error(
        `TRUSTED_PROXIES entry ${JSON.stringify(entry)} is not an IP address or CIDR (such as 10.0.0.0/8 or ::1)`,
      );
    }
    block.addSubnet(addr, bits, family === 4 ? 'ipv4' : 'ipv6');
  }
  return (addr) => {
    const family = isIP(addr);
    return family !== 0 && block.check(addr, family === 4 ? 'ipv4' : 'ipv6');
  };
}
