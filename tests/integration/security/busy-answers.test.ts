import { parse } from "node-html-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUSY_MESSAGE, QUOTAS } from "~/lib/rules";
import { Client, registerUser } from "../../../scripts/lib/client";
import { makeImage, padTo } from "../../../scripts/lib/images";
import { postForm, publish } from "../../../scripts/lib/publish";
import { startServer, type RunningServer } from "../../../scripts/lib/server";

// A server of its own: these tests fill an account's upload memory and use up its limits on purpose.
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: "true" });
});
afterAll(() => server?.stop());

const TYPED = { title: "Bitka pri Moháči", content: "Text, ktorý autor písal hodinu.", tags: ["Osmanská ríša", "Stredovek"], sources: "Kronika, s. 12" };
const PICK_AGAIN = "obrázok vyberte znova";

/** The create form as the author filled it in, in the browser's order (the image last but the button). */
function typedForm(image: Buffer): FormData {
  const form = postForm(TYPED.title, TYPED.content, image, { tags: TYPED.tags });
  const file = form.get("image")!;
  form.delete("image");
  form.append("sources", TYPED.sources);
  form.append("image", file);
  form.append("intent", "publish");
  return form;
}

/**
 * An upload whose body arrives but for its last bytes and then waits, as a
 * slow phone's does: the server holds what arrived until it answers.
 * `finish` sends the rest and answers the status.
 */
async function heldUpload(client: Client, image: Buffer) {
  const encoded = new Response(postForm("Pomalý článok", "Text", image));
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  let rest!: () => void;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes.subarray(0, -100));
      rest = () => {
        controller.enqueue(bytes.subarray(-100));
        controller.close();
      };
    },
  });
  const headers = { Origin: client.base, "Content-Type": encoded.headers.get("content-type")! };
  const answer = client.request("/create-post", { method: "POST", body, headers, duplex: "half" } as RequestInit);
  return {
    async finish() {
      rest();
      const response = await answer;
      await response.arrayBuffer();
      return response.status;
    },
  };
}

describe("an answer refused for load keeps what was typed and says when to come back", () => {
  it("refuses an author's third simultaneous upload with 503, Retry-After and the form as typed, no JS and JS", async () => {
    const { client } = await registerUser(server.url);
    const image = padTo(await makeImage("jpeg", 480, 300), 1_900_000);
    const held = [await heldUpload(client, image), await heldUpload(client, image)];
    // Until the server has read both bodies: 3.8 MB of the account's 5 MB of upload memory.
    await new Promise((resolve) => setTimeout(resolve, 500));
    try {
      const page = await client.request("/create-post", { method: "POST", body: typedForm(image), headers: { Origin: client.base, Accept: "text/html" } });
      expect(page.status).toBe(503);
      expect(page.headers.get("Retry-After")).toBe("5");
      const doc = parse(await page.text());
      expect(doc.querySelector("#create-error")?.text).toContain(BUSY_MESSAGE);
      expect(doc.querySelector("#create-error")?.text).toContain(PICK_AGAIN);
      expect(doc.querySelector('input[name="title"]')?.getAttribute("value")).toBe(TYPED.title);
      expect(doc.querySelector('textarea[name="content"]')?.text).toBe(TYPED.content);
      expect(doc.querySelector('textarea[name="sources"]')?.text).toBe(TYPED.sources);
      const tags = doc.querySelectorAll('input[name="tags"][checked]').map((tag) => tag.getAttribute("value"));
      expect(tags).toEqual(TYPED.tags);

      // With JavaScript the same form goes to the route's data.
      const data = await client.request("/create-post.data", { method: "POST", body: typedForm(image), headers: { Origin: client.base } });
      expect(data.status).toBe(503);
      expect(data.headers.get("Retry-After")).toBe("5");
      const text = await data.text();
      for (const typed of [PICK_AGAIN, TYPED.title, TYPED.content, TYPED.sources, ...TYPED.tags]) expect(text).toContain(typed);
    } finally {
      for (const upload of held) expect(await upload.finish()).toBe(303);
    }
  });

  /** A limit's 429, as a page (no JS) and as data (JS): each says when the limit lets the next attempt through. */
  async function expectLimited(send: (path: string) => Promise<Response>, path: string, windowSeconds: number) {
    for (const target of [path, `${path}.data`]) {
      const response = await send(target);
      await response.arrayBuffer();
      expect(response.status, target).toBe(429);
      const seconds = Number(response.headers.get("Retry-After"));
      expect(seconds, target).toBeGreaterThan(windowSeconds - 60);
      expect(seconds, target).toBeLessThanOrEqual(windowSeconds);
    }
  }

  it("says when to come back on a 429 of sign-in, rename and a new article, page and data", async () => {
    const { client, email } = await registerUser(server.url);
    const signIn = (path: string) => new Client(server.url, client.address).request(path, formPost({ intent: "signin", email, password: "zlé-heslo-123" }));
    for (let i = 0; i < 10; i++) expect((await signIn("/signinsignup")).status).toBe(400);
    await expectLimited(signIn, "/signinsignup", 15 * 60);

    const names = [`Premenovaný ${process.pid} A`, `Premenovaný ${process.pid} B`];
    const rename = (path: string, i = 0) => client.request(path, formPost({ intent: "rename", displayName: names[i % 2] }));
    for (let i = 0; i < QUOTAS.renamesPerHour; i++) expect((await rename("/account", i)).status).toBe(303);
    await expectLimited(rename, "/account", 60 * 60);

    for (let i = 0; i < QUOTAS.postsPerHour; i++) expect(await publish(client, `Článok ${i}`)).not.toBeNull();
    const image = await makeImage("jpeg", 480, 300);
    await expectLimited((path) => client.request(path, { method: "POST", body: typedForm(image), headers: { Origin: client.base } }), "/create-post", 60 * 60);
  });
});

function formPost(fields: Record<string, string>): RequestInit {
  return { method: "POST", body: new URLSearchParams(fields), headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" } };
}
