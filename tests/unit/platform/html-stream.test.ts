import { PassThrough, type Transform } from "node:stream";
import { text } from "node:stream/consumers";
import { createElement, Suspense } from "react";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { htmlStream } from "~/services/platform/html-stream.server";

// Many short texts with two-byte letters: some chunk of React's 2 kB buffer ends where one does not fit.
const page = createElement(
  "ul",
  null,
  Array.from({ length: 400 }, (_, i) => createElement("li", { key: i }, `Štefánik ${i}: Košariská, Žilina`)),
);

function streamed(body: Transform): Promise<string> {
  return new Promise((resolve, reject) => {
    const { pipe } = renderToPipeableStream(page, {
      onAllReady() {
        pipe(body);
        text(body).then(resolve, reject);
      },
      onError: reject,
    });
  });
}

describe("htmlStream", () => {
  it("passes React's streamed HTML through byte for byte, without the zero bytes React 18 pads chunks with", async () => {
    const html = await streamed(htmlStream());
    expect(html).not.toContain("\0");
    expect(html).toBe(renderToString(page));
  });

  it("is needed: React's own stream has the padding (when this fails, React is fixed and htmlStream can go)", async () => {
    expect(await streamed(new PassThrough())).toContain("\0");
  });

  it("ends the document after what React streams past the shell (valid HTML: nothing after </html>)", async () => {
    let arrive!: () => void;
    const later = new Promise<void>((resolve) => (arrive = resolve));
    let arrived = false;
    function Late() {
      if (!arrived) throw later.then(() => (arrived = true));
      return createElement("script", null, "window.late = 1;");
    }
    const document = createElement("html", null, createElement("body", null, createElement("p", null, "Text"), createElement(Suspense, null, createElement(Late))));
    const html = await new Promise<string>((resolve, reject) => {
      const body = htmlStream();
      const { pipe } = renderToPipeableStream(document, {
        onShellReady() {
          pipe(body);
          text(body).then(resolve, reject);
          setTimeout(arrive, 10);
        },
        onError: reject,
      });
    });
    expect(html).toContain("window.late = 1;");
    expect(html.endsWith("</body></html>")).toBe(true);
    expect(html.split("</body></html>")).toHaveLength(2);
  });
});
