import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export type SentMail = { from: string; to: string | string[]; subject: string; text: string; html: string; authorization: string };

/**
 * A stand-in for Resend's HTTP API on 127.0.0.1 (the real one is not
 * reachable from here): the real `resend` client POSTs to `${base}/emails`.
 * Tests read what it received from GET /__sent.
 */
export async function startResendStandIn() {
  const sent: SentMail[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/emails") {
        const mail = JSON.parse(body);
        sent.push({ ...mail, authorization: req.headers.authorization ?? "" });
        res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ id: `stand-in-${sent.length}` }));
      } else if (req.method === "GET" && req.url === "/__sent") {
        res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(sent));
      } else {
        res.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The mails the stand-in has received so far. */
export async function sentMails(standInUrl: string): Promise<SentMail[]> {
  return (await fetch(`${standInUrl}/__sent`)).json();
}

/** Wait for a mail to `to` beyond the first `after` of them, and return it. */
export async function waitForMail(standInUrl: string, to: string, after = 0): Promise<SentMail> {
  for (let i = 0; i < 100; i++) {
    const mails = (await sentMails(standInUrl)).filter((m) => [m.to].flat().includes(to));
    if (mails.length > after) return mails[mails.length - 1];
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail to ${to} arrived`);
}
