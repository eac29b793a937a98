import { parse, type HTMLElement } from "node-html-parser";

let clients = 0;

/**
 * A minimal browser over fetch: one cookie jar, forms posted like a browser
 * would (with Origin). Each client comes from its own address as a proxy
 * would report it (X-Forwarded-For, honoured only by servers with
 * TRUST_PROXY), so tests do not share one throttling budget.
 */
function nextAddress(): string {
  return `198.51.${100 + (Math.floor(clients / 250) % 100)}.${(clients++ % 250) + 1}`;
}

export class Client {
  cookies = new Map<string, string>();

  /** `address`: speak from the same address as another client (e.g. a user at an attacker's address). */
  constructor(
    readonly base: string,
    readonly address = nextAddress(),
  ) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  private remember(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const [name, value] = [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
      const expired = attributes.some((a) => /max-age=0|expires=thu, 01 jan 1970/i.test(a.trim()));
      if (expired || value === "") this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
  }

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size && !headers.has("Cookie")) headers.set("Cookie", this.cookieHeader());
    if (!headers.has("X-Forwarded-For")) headers.set("X-Forwarded-For", this.address);
    const response = await fetch(`${this.base}${path}`, { redirect: "manual", ...init, headers });
    this.remember(response);
    return response;
  }

  async get(path: string, init: RequestInit = {}): Promise<{ response: Response; html: string; doc: HTMLElement }> {
    const response = await this.request(path, init);
    const html = await response.text();
    return { response, html, doc: parse(html) };
  }

  /** POST an urlencoded form as a same-site browser would. */
  async post(path: string, fields: Record<string, string | string[]>, headers: Record<string, string> = {}) {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(name, v);
    const response = await this.request(path, {
      method: "POST",
      body,
      headers: { Origin: this.base, "Content-Type": "application/x-www-form-urlencoded", ...headers },
    });
    const html = await response.text();
    return { response, html, doc: parse(html) };
  }

  /** Whether the pages treat this client as signed in (the header offers sign-out). */
  async isSignedIn(): Promise<boolean> {
    const { doc } = await this.get("/posts");
    return doc.querySelector(".nav-signout") !== null;
  }
}

let counter = 0;
/** A fresh e-mail address for each test account. */
export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${process.pid}-${Date.now()}-${counter++}@example.com`;
}

export const GOOD_PASSWORD = "správne-heslo-42";

/** A test account: a fresh e-mail and, since no two accounts may look alike, a name of its own (its e-mail's number). */
export async function registerUser(base: string, overrides: Record<string, string> = {}) {
  const client = new Client(base);
  const email = overrides.email ?? uniqueEmail();
  const { response } = await client.post("/signinsignup", {
    intent: "register",
    displayName: `Používateľ ${email.replace(/^.*?-|@.*$/g, "")}`,
    email,
    password: GOOD_PASSWORD,
    confirmPassword: GOOD_PASSWORD,
    ...overrides,
  });
  if (response.status !== 303) throw new Error(`registration failed: ${response.status}`);
  return { client, email };
}
