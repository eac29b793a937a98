import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export type SentMail = {
  from: string;
  to: string | string[];
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
  authorization: string;
  idempotencyKey: string;
  /** Sent in a request to the batch API. */
  batch?: boolean;
};

/** How the stand-in answers: as Resend does, as a Resend that is down, or taking the mail and losing its answer once, or every time until told otherwise (a client may send a request again on its own when the connection drops). */
export type StandInMode = "ok" | "down" | "loseAnswer" | "loseAnswers";

/**
 * A stand-in for Resend's HTTP API on 127.0.0.1 (the real one is not
 * reachable from here): the real `resend` client POSTs to `${base}/emails`,
 * and up to 100 mails to `${base}/emails/batch` (with
 * `x-batch-validation: permissive` a mail to an address without "@" is
 * refused alone, as Resend refuses an invalid one; strict refuses the batch).
 * As Resend does, a request with an Idempotency-Key already accepted is
 * answered again without a second mail. Tests read what it received from
 * GET /__sent, and set how it answers with POST /__mode (StandInMode).
 */
export async function startResendStandIn() {
  const sent: SentMail[] = [];
  const accepted = new Map<string, string>();
  let mode: StandInMode = "ok";
  let requests = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/emails/batch") {
        requests++;
        if (mode === "down") {
          res.writeHead(503, { "Content-Type": "application/json" }).end(JSON.stringify({ name: "internal_server_error", message: "stand-in is down", statusCode: 503 }));
          return;
        }
        const mails = JSON.parse(body) as Omit<SentMail, "authorization" | "idempotencyKey">[];
        if (!Array.isArray(mails) || mails.length > 100) {
          res.writeHead(422, { "Content-Type": "application/json" }).end(JSON.stringify({ name: "validation_error", message: "1 to 100 emails", statusCode: 422 }));
          return;
        }
        const invalid = (m: (typeof mails)[number]) => ![m.to].flat().every((to) => to.includes("@"));
        const permissive = req.headers["x-batch-validation"] === "permissive";
        if (!permissive && mails.some(invalid)) {
          res.writeHead(422, { "Content-Type": "application/json" }).end(JSON.stringify({ name: "validation_error", message: "Invalid `to` field", statusCode: 422 }));
          return;
        }
        const key = req.headers["idempotency-key"];
        const earlier = typeof key === "string" ? accepted.get(key) : undefined;
        const answer = earlier
          ? (JSON.parse(earlier) as object)
          : {
              data: mails.flatMap((m, i) => (invalid(m) ? [] : [{ id: `stand-in-${sent.length + i + 1}` }])),
              errors: mails.flatMap((m, index) => (invalid(m) ? [{ index, message: "Invalid `to` field" }] : [])),
            };
        if (!earlier) {
          for (const m of mails) if (!invalid(m)) sent.push({ ...m, authorization: req.headers.authorization ?? "", idempotencyKey: typeof key === "string" ? key : "", batch: true });
          if (typeof key === "string") accepted.set(key, JSON.stringify(answer));
        }
        if (mode === "loseAnswer" || mode === "loseAnswers") {
          if (mode === "loseAnswer") mode = "ok";
          req.socket.destroy();
          return;
        }
        res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(answer));
      } else if (req.method === "POST" && req.url === "/emails") {
        requests++;
        if (mode === "down") {
          res.writeHead(503, { "Content-Type": "application/json" }).end(JSON.stringify({ name: "internal_server_error", message: "stand-in is down", statusCode: 503 }));
          return;
        }
        const key = req.headers["idempotency-key"];
        const earlier = typeof key === "string" ? accepted.get(key) : undefined;
        const id = earlier ?? `stand-in-${sent.length + 1}`;
        if (!earlier) {
          sent.push({ ...JSON.parse(body), authorization: req.headers.authorization ?? "", idempotencyKey: key ?? "" });
          if (typeof key === "string") accepted.set(key, id);
        }
        if (mode === "loseAnswer") {
          mode = "ok";
          req.socket.destroy();
          return;
        }
        res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ id }));
      } else if (req.method === "GET" && req.url === "/__sent") {
        res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(sent));
      } else if (req.method === "GET" && req.url === "/__count") {
        res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(sent.length));
      } else if (req.method === "GET" && req.url === "/__requests") {
        res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(requests));
      } else if (req.method === "POST" && req.url === "/__mode") {
        mode = body as StandInMode;
        res.writeHead(204).end();
      } else {
        res.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    setMode: async (next: StandInMode) => void (await fetch(`${url}/__mode`, { method: "POST", body: next })),
    /** How many mails it has taken (without reading them all). */
    count: async (): Promise<number> => (await fetch(`${url}/__count`)).json(),
    /** Every POST /emails and /emails/batch it was sent, answered or not. */
    requests: async (): Promise<number> => (await fetch(`${url}/__requests`)).json(),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The mails the stand-in has received so far. */
export async function sentMails(standInUrl: string): Promise<SentMail[]> {
  return (await fetch(`${standInUrl}/__sent`)).json();
}

/** Wait for a mail to `to` beyond the first `after` of them (of those whose subject matches, if given), and return it. */
export async function waitForMail(standInUrl: string, to: string, after = 0, subject?: RegExp): Promise<SentMail> {
  for (let i = 0; i < 100; i++) {
    const mails = (await sentMails(standInUrl)).filter((m) => [m.to].flat().includes(to) && (!subject || subject.test(m.subject)));
    if (mails.length > after) return mails[mails.length - 1];
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail to ${to} arrived`);
}
