import { describe, expect, it } from "vitest";
import { addressKey } from "~/services/platform/client-address.server";

describe("addressKey: what per-address limits count a client by", () => {
  it("keeps an IPv4 address as it is", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
  });

  it("counts an IPv4 address written as IPv6 as the IPv4 address", () => {
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::FFFF:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("0:0:0:0:0:ffff:cb00:7107")).toBe("203.0.113.7");
    expect(addressKey("::ffff:127.0.0.1")).toBe(addressKey("127.0.0.1"));
  });

  it("counts an IPv6 address by its /64, however it is written", () => {
    const key = "2001:db8:1:2::/64";
    for (const address of ["2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:0DB8:0001:0002:0:0:0:9", "2001:db8:1:2:a:b:1.2.3.4", "2001:db8:1:2::1%eth0"]) {
      expect(addressKey(address), address).toBe(key);
    }
    expect(addressKey("2001:db8:1:3::1")).not.toBe(key);
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("::")).toBe("0:0:0:0::/64");
    expect(addressKey("fe80::1")).toBe("fe80:0:0:0::/64");
  });

  it("does not take other IPv4-in-IPv6 forms for IPv4", () => {
    // Only ::ffff:0:0/96 is a mapped address; 64:ff9b::/96 (NAT64) and ::a.b.c.d are IPv6 clients.
    expect(addressKey("64:ff9b::203.0.113.7")).toBe("64:ff9b:0:0::/64");
    expect(addressKey("::203.0.113.7")).toBe("0:0:0:0::/64");
  });

  it("drops the port and brackets some proxies add, so that each port is not a new client (a review found 13 guesses never limited)", () => {
    for (const port of ["1000", "1001", ""]) {
      expect(addressKey(`192.0.2.9:${port}`)).toBe("192.0.2.9");
      expect(addressKey(`[2001:db8::1]:${port}`)).toBe("2001:db8:0:0::/64");
    }
    expect(addressKey("[2001:db8::1]")).toBe("2001:db8:0:0::/64");
    expect(addressKey(" 192.0.2.9 ")).toBe("192.0.2.9");
  });

  it("counts anything else as it is", () => {
    for (const other of ["unknown", "01.2.3.4", "2001:db8::1::2", "not an address"]) expect(addressKey(other)).toBe(other);
  });
});
