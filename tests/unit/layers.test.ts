import { ESLint } from "eslint";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The lint rule that keeps the layers importing downwards (eslint.config.js),
// tried on imports written into files of each layer.
const eslint = new ESLint({ cwd: fileURLToPath(new URL("../../", import.meta.url)) });

async function refused(filePath: string, code: string): Promise<boolean> {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, { filePath });
  return result.messages.some((message) => message.ruleId === "@typescript-eslint/no-restricted-imports");
}

describe("the layers import only downwards", () => {
  it.each([
    ["app/models/example.server.ts", 'import { getCurrentUser } from "~/services/platform/session.server";'],
    ["app/models/example.server.ts", 'import { changePost } from "../routes/posts.$postId";'],
    ["app/db/example.server.ts", 'import { getPost } from "~/models/posts.server";'],
    ["app/config/example.server.ts", 'import { db } from "~/db/connection.server";'],
    ["app/services/example.server.ts", 'import { loader } from "~/routes/posts";'],
    ["app/lib/example.ts", 'import { env } from "~/config/env.server";'],
    ["app/components/Example.tsx", 'import type { PostCard } from "~/models/posts.server";'],
    ["app/components/Example.tsx", 'import type { loader } from "~/root";'],
    ["server/example.ts", 'import { getCurrentUser } from "~/services/platform/session.server";'],
    ["server/example.ts", 'import { getCurrentUser } from "../app/services/platform/session.server";'],
    ["app/models/example.server.ts", 'import { pageDataStamp } from "~/db/changes.server";'],
    ["app/services/example.server.ts", 'import { db } from "./../db/connection.server";'],
    ["scripts/example.ts", 'import { getPage } from "../tests/support/http";'],
  ])("refuses, in %s: %s", async (file, code) => {
    expect(await refused(file, code)).toBe(true);
  });

  it.each([
    ["app/models/example.server.ts", 'import { db } from "~/db/connection.server";'],
    ["app/services/example.server.ts", 'import { getPost } from "~/models/posts.server";'],
    ["app/routes/example.tsx", 'import { publishPost } from "~/services/articles/posts.server";'],
    ["app/components/Example.tsx", 'import type { PostCard } from "~/lib/types";'],
    ["server/example.ts", 'import type { AppForServer } from "~/server-interface.server";'],
    ["server/example.ts", 'import { listHref } from "~/lib/links";'],
  ])("allows, in %s: %s", async (file, code) => {
    expect(await refused(file, code)).toBe(false);
  });
});
