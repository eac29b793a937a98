function firstMatch(userAgent: string, names: [RegExp, string][]): string | null {
  return names.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;
}

/** A session's device as people name it ("Firefox · Windows"), from its User-Agent; rough by design. */
export function describeUserAgent(userAgent: string): string {
  const browser =
    firstMatch(userAgent, [
      [/Edg(e|A|iOS)?\//, "Edge"],
      [/OPR\/|Opera/, "Opera"],
      [/SamsungBrowser\//, "Samsung Internet"],
      [/Firefox\/|FxiOS\//, "Firefox"],
      [/Chrome\/|CriOS\//, "Chrome"],
      [/Safari\//, "Safari"],
      [/w3m|Lynx|Links/i, "textový prehliadač"],
      [/curl|wget|python|node|undici/i, "program"],
    ]) ?? "neznámy prehliadač";
  const system = firstMatch(userAgent, [
    [/Android/, "Android"],
    [/iPhone|iPad|iPod/, "iOS"],
    [/Windows/, "Windows"],
    [/Mac OS X|Macintosh/, "macOS"],
    [/CrOS/, "ChromeOS"],
    [/Linux/, "Linux"],
  ]);
  return system ? `${browser} · ${system}` : browser;
}
