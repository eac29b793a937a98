import { imageKeyInUse } from "~/models/posts.server";

/**
 * Whether an image key is in use (an article's, a draft's, a pending
 * upload's), asked by every image request: three queries were 15 % of an
 * image's cost under load (CPU profile). The answers are kept until
 * `databaseVersion` changes (it must change with anything in the database:
 * any table, any writer), so a deleted article's image stops being served
 * at once. At most MAX_KEYS answers (made-up keys included): past that,
 * all are forgotten.
 */
const MAX_KEYS = 2_000;

export function keptImageKeyAnswers(databaseVersion: () => unknown): (key: string) => boolean {
  const answers = new Map<string, boolean>();
  let answeredAt: unknown;
  return (key) => {
    const version = databaseVersion();
    if (version !== answeredAt || answers.size >= MAX_KEYS) {
      answers.clear();
      answeredAt = version;
    }
    let used = answers.get(key);
    if (used === undefined) {
      used = imageKeyInUse(key);
      answers.set(key, used);
    }
    return used;
  };
}
