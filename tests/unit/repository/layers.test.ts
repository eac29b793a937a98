import { ESLint } from "eslint";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { CAPABILITIES } from "../../../eslint.config.js";

// The lint rule that keeps the layers importing downwards (eslint.config.js),
// tried on imports written into files of each layer, and on the real tree.
const root = fileURLToPath(new URL("../../../", import.meta.url));
const RULE = "@typescript-eslint/no-restricted-imports";
const eslint = new ESLint({ cwd: root });

async function refused(filePath: string, code: string): Promise<boolean> {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, { filePath });
  return result.messages.some((message) => message.ruleId === RULE);
}

describe("the layers import only downwards", () => {
  it.each([
    ["app/models/example.server.ts", 'import { getCurrentUser } from "~/services/platform/session.server";'],
    ["app/models/example.server.ts", 'import { publishPost } from "~/services/articles/posts.server";'],
    ["app/models/example.server.ts", 'import { changePost } from "../routes/posts.$postId";'],
    ["app/db/example.server.ts", 'import { getPost } from "~/models/posts.server";'],
    ["app/config/example.server.ts", 'import { db } from "~/db/connection.server";'],
    ["app/services/articles/example.server.ts", 'import { loader } from "~/routes/posts";'],
    ["app/lib/example.ts", 'import { env } from "~/config/env.server";'],
    ["app/lib/example.ts", 'import { getPost } from "~/models/posts.server";'],
    ["app/lib/example.ts", 'import { db } from "~/db/connection.server";'],
    ["app/lib/example.ts", 'import { readablePost } from "~/services/articles/posts.server";'],
    ["app/lib/text/example.ts", 'import { PostCard } from "~/components/list/PostCard";'],
    ["app/components/Example.tsx", 'import type { PostCard } from "~/models/posts.server";'],
    ["app/components/articles/Example.tsx", 'import { readablePost } from "~/services/articles/posts.server";'],
    ["app/components/list/Example.tsx", 'import { db } from "~/db/connection.server";'],
    ["app/components/Example.tsx", 'import type { loader } from "~/root";'],
    ["server/example.ts", 'import { getCurrentUser } from "~/services/platform/session.server";'],
    ["server/example.ts", 'import { getCurrentUser } from "../app/services/platform/session.server";'],
    ["app/models/example.server.ts", 'import { pageDataStamp } from "~/db/changes.server";'],
    ["app/services/articles/example.server.ts", 'import { db } from "./../../db/connection.server";'],
    // A capability reaching one above it: uploads asking operations' health, sessions' floor asking accounts.
    ["app/services/articles/example.server.ts", 'import { healthProblems } from "~/services/operations/health.server";'],
    ["app/services/platform/example.server.ts", 'import { createAccount } from "~/services/accounts/account.server";'],
    ["app/services/images/example.server.ts", 'import { readablePost } from "~/services/articles/posts.server";'],
    // … or a neighbour by a relative path.
    ["app/services/articles/example.server.ts", 'import { decideReports } from "../moderation/moderation-decisions.server";'],
    ["scripts/example.ts", 'import { getPage } from "../tests/support/http";'],
  ])("refuses, in %s: %s", async (file, code) => {
    expect(await refused(file, code)).toBe(true);
  });

  it.each([
    ["app/models/example.server.ts", 'import { db } from "~/db/connection.server";'],
    ["app/services/articles/example.server.ts", 'import { getPost } from "~/models/posts.server";'],
    ["app/services/articles/example.server.ts", 'import { sanitizeContent } from "./content.server";'],
    ["app/services/platform/example.server.ts", 'import { getSessionUser } from "~/models/sessions.server";'],
    ["app/routes/example.tsx", 'import { publishPost } from "~/services/articles/posts.server";'],
    ["app/components/Example.tsx", 'import type { PostCard } from "~/lib/types";'],
    ["app/components/history/Example.tsx", 'import { PostText } from "~/components/articles/PostText";'],
    ["app/lib/time/example.ts", 'import { PAGE_SIZE } from "~/lib/rules";'],
    ["server/example.ts", 'import type { AppForServer } from "~/server-interface.server";'],
    ["server/example.ts", 'import { listHref } from "~/lib/links";'],
  ])("allows, in %s: %s", async (file, code) => {
    expect(await refused(file, code)).toBe(false);
  });
});

describe("the capabilities of app/services, in order", () => {
  const pairs = CAPABILITIES.flatMap((upper, at) => CAPABILITIES.slice(at + 1).map((lower) => [upper, lower]));

  it.each(pairs)("%s may import %s, never the other way", async (upper, lower) => {
    const importing = (from: string, to: string) => refused(`app/services/${from}/example.server.ts`, `import { x } from "~/services/${to}/example.server";`);
    expect(await importing(upper, lower)).toBe(false);
    expect(await importing(lower, upper)).toBe(true);
  });

  it("holds every service in one of them", () => {
    const entries = readdirSync(path.join(root, "app/services"), { withFileTypes: true });
    expect(entries.filter((entry) => !entry.isDirectory()).map((entry) => entry.name)).toEqual([]);
    expect(entries.map((entry) => entry.name).sort()).toEqual([...CAPABILITIES].sort());
  });
});

describe("the real tree", () => {
  it("breaks no layer rule", async () => {
    const checking = new ESLint({ cwd: root, ruleFilter: ({ ruleId }) => ruleId === RULE });
    const results = await checking.lintFiles(["app", "server", "scripts"]);
    const broken = results.flatMap((result) => result.messages.map((message) => `${path.relative(root, result.filePath)}:${message.line} ${message.message}`));
    expect(broken).toEqual([]);
  });

  it("has no files of app/ importing each other in a circle", () => {
    const app = path.join(root, "app");
    const files = (readdirSync(app, { recursive: true, encoding: "utf8" }) as string[]).filter((file) => /\.tsx?$/.test(file)).map((file) => path.join(app, file));
    const known = new Set(files);
    const resolve = (from: string, name: string) => {
      const base = name.startsWith("~/") ? path.join(app, name.slice(2)) : name.startsWith(".") ? path.resolve(path.dirname(from), name) : null;
      return base === null ? undefined : [base, `${base}.ts`, `${base}.tsx`].find((file) => known.has(file));
    };
    // Every import counts, types and dynamic ones too.
    const imports = new Map(
      files.map((file) => [file, ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles.flatMap(({ fileName }) => resolve(file, fileName) ?? [])]),
    );
    // Tarjan's strongly connected components: a circle is one of more than one file (or a file importing itself).
    const circles: string[][] = [];
    const order = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const visit = (file: string) => {
      order.set(file, order.size);
      low.set(file, order.get(file)!);
      stack.push(file);
      for (const next of imports.get(file)!) {
        if (!order.has(next)) {
          visit(next);
          low.set(file, Math.min(low.get(file)!, low.get(next)!));
        } else if (stack.includes(next)) low.set(file, Math.min(low.get(file)!, order.get(next)!));
      }
      if (low.get(file) !== order.get(file)) return;
      const component = stack.splice(stack.indexOf(file));
      if (component.length > 1 || imports.get(file)!.includes(file)) circles.push(component.map((member) => path.relative(root, member)));
    };
    for (const file of files) if (!order.has(file)) visit(file);
    expect(circles).toEqual([]);
  });
});
