import { isIPv4, isIPv6 } from "node:net";

/**
 * What every per-address limit counts a client by. An IPv6 client usually
 * holds a whole /64 (2^64 addresses) and could speak from a new one each
 * time, so it is counted by its /64. An IPv4 address written as IPv6
 * (`::ffff:a.b.c.d`, as a dual-stack socket reports IPv4 clients) is that
 * IPv4 address. Some proxies add the client's port (`a.b.c.d:port`,
 * `[v6]:port`) or brackets: those are dropped, or each port would be a new
 * client. Anything else (no address, a proxy's odd header) is counted as it is.
 */
export function addressKey(forwarded: string): string {
  const address = withoutPort(forwarded.trim());
  if (isIPv4(address)) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/** `a.b.c.d:port` → `a.b.c.d`; `[v6]:port` and `[v6]` → `v6`. */
function withoutPort(address: string): string {
  const bracketed = /^\[([^\]]*)\](?::\d*)?$/.exec(address);
  if (bracketed) return bracketed[1];
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d*$/.exec(address);
  return v4WithPort ? v4WithPort[1] : address;
}

/** The eight 16-bit groups of an IPv6 address (its zone dropped), or null when it is none. */
function ipv6Groups(address: string): number[] | null {
  const bare = address.replace(/%.*$/, "");
  if (!isIPv6(bare)) return null;
  // A dotted IPv4 tail stands for the last two groups.
  const text = bare.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (...match: string[]) => {
    const [a, b, c, d] = match.slice(1, 5).map(Number);
    return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  });
  const parse = (part: string) => (part ? part.split(":").map((g) => parseInt(g, 16)) : []);
  // isIPv6 allows at most one "::", which stands for as many zero groups as are missing.
  const [head, tail] = text.split("::");
  if (tail === undefined) return parse(head);
  const front = parse(head);
  const back = parse(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}
