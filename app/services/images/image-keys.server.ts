import { imageAudience, type ImageAudience } from "~/models/posts.server";

/**
 * Who may be sent an image (imageAudience: anyone, a hidden article's
 * author and admins, or nobody), asked by every image request: three
 * queries were 15 % of an image's cost under load (CPU profile). The
 * answers are kept until `databaseVersion` changes (it must change with
 * anything in the database: any table, any writer), so a deleted or hidden
 * article's image stops being served at once, and a restored one is served
 * again. At most MAX_KEYS answers (made-up keys included): past that, all
 * are forgotten.
 */
const MAX_KEYS = 2_000;

export function keptImageAudiences(databaseVersion: () => unknown): (key: string) => ImageAudience {
  const answers = new Map<string, ImageAudience>();
  let answeredAt: unknown;
  return (key) => {
    const version = databaseVersion();
    if (version !== answeredAt || answers.size >= MAX_KEYS) {
      answers.clear();
      answeredAt = version;
    }
    let audience = answers.get(key);
    if (audience === undefined) {
      audience = imageAudience(key);
      answers.set(key, audience);
    }
    return audience;
  };
}
