import { env } from "~/config/env.server";
import { closeWatcher, databaseVersion, pageDataStamp } from "~/db/changes.server";
import { sqlite } from "~/db/connection.server";
import { VARIANT_FILE } from "~/lib/images";
import { postState } from "~/models/posts.server";
import { healthProblems } from "~/services/operations/health.server";
import { etagOf } from "~/services/platform/http-cache.server";
import { canModify } from "~/lib/rules";
import { keptImageAudiences } from "~/services/images/image-keys.server";
import { heldImageFile, imageStore } from "~/services/images/image-store.server";
import type { ImageFile } from "~/services/images/image-store-type.server";
import { searchData, searchResults } from "~/search-results.server";
import { requestInfo } from "~/services/platform/request-log.server";
import type { CurrentUser } from "~/lib/types";
import { knownSessionUser, sessionOfCookie } from "~/services/platform/session.server";
import { closeReads, noteRead } from "~/services/articles/reads.server";
import { robotsTxt } from "~/services/articles/sitemap.server";
import { startup } from "~/services/operations/startup.server";
import { answerStorageFaults, storageFault } from "~/services/platform/storage-fault.server";

const audienceOf = keptImageAudiences(databaseVersion);

/** Whose kept pages a reader gets: every visitor shares them; a signed-in user (with their admin status) has their own. */
function readerKey(user: CurrentUser | null): string {
  return user ? `${user.id}:${user.isAdmin ? "admin" : "user"}` : "visitor";
}

/**
 * All the HTTP server (server/) uses of the app, besides rendering it: the
 * build's entry module exports this one object, so that the server and the
 * app share one configuration, one database handle and one start-up.
 */
export const appForServer = {
  env,
  /** Before listening: clean-ups and the first start's demo articles. */
  startup,
  /** Write the counted reads, then close the database cleanly (a WAL checkpoint, Litestream's when it replicates) before the process ends. */
  close(): void {
    closeReads();
    closeWatcher();
    sqlite.close();
  },
  /**
   * An uploaded image's file, to be sent (null when there is none, or not for this reader), from the folder or the bucket.
   * A key no article or upload uses is answered here: made-up names cost the storage nothing. A hidden
   * article's image is its author's and the admins' only (read from the request's cookie, as for its page):
   * `private` then, so that no cache keeps it for anyone else.
   */
  async openImage(name: string, cookieHeader = ""): Promise<(ImageFile & { private?: boolean }) | null> {
    const [, key] = VARIANT_FILE.exec(name) ?? [];
    const audience = key ? audienceOf(key) : "nobody";
    if (audience === "nobody") return null;
    if (audience !== "everyone" && !canModify((await sessionOfCookie(cookieHeader, databaseVersion))?.user, audience)) return null;
    const file = await (await imageStore()).open(name);
    return file && { ...file, private: audience !== "everyone" };
  },
  /**
   * The file openImage would give, when the folder holds it in memory, at once (no promise): the
   * image at its own address answered in one turn. Undefined when not held, or not everyone's (a
   * hidden article's): openImage then.
   */
  heldImage(name: string) {
    const file = heldImageFile(name);
    return file && audienceOf(file.key) === "everyone" ? file : undefined;
  },
  /** Every route's storage faults answered 503/507 (done to the build before it serves). */
  answerStorageFaults,
  /** What a storage error means to a reader (an image that cannot be read): null when it is not the storage's fault. */
  storageFault,
  /** /healthz: one line per failing check, none when the site can take writes (each check cached a few seconds). */
  healthProblems,
  /** robots.txt and its validator: fixed for the life of the process (it names PUBLIC_URL's sitemap). */
  robotsTxt(): { body: string; etag: string } {
    const body = robotsTxt();
    return { body, etag: etagOf(body) };
  },
  /**
   * A read of an article, as the server judged it (server/reads.ts): counted in memory, its author's and
   * admins' excepted, and written in batches. A promise only when the reader's session had to be looked up.
   */
  noteRead(postId: string, cookieHeader: string | undefined): void | Promise<void> {
    return noteRead(postId, cookieHeader, databaseVersion);
  },
  /** Run a request's handling with a record the app fills in for its log line (who it was). */
  requestInfo,
  /** What the page cache asks of the app. */
  pages: {
    /** Changes whenever anything a page shows changes, by any writer. */
    dataStamp: pageDataStamp,
    /** Whether an article exists, and whether it is hidden: a hidden one is its author's and the admins' only (readablePost), so no cache keeps its page. */
    articleState: postState,
    /** Whose pages a request gets (readerKey). */
    async readerOf(cookieHeader: string): Promise<string> {
      // The session's row read again after any write: this process's at once, another's (`npm run admin`) within a millisecond.
      return readerKey((await sessionOfCookie(cookieHeader, databaseVersion))?.user ?? null);
    },
    /** readerOf when it is known at once, with the user for the log line; undefined when only readerOf can tell. */
    knownReader(cookieHeader: string): { reader: string; userId: string | null } | undefined {
      const user = knownSessionUser(cookieHeader, databaseVersion);
      return user === undefined ? undefined : { reader: readerKey(user), userId: user?.id ?? null };
    },
    /** What a new search changes on a visitor's page of the list: its loaders' data and its results, rendered alone (server/search-pages.ts). */
    searchResults,
    /** A search's data request answered without Remix's handler (null: not one, or Remix must answer it). */
    searchData,
  },
};

export type AppForServer = typeof appForServer;
