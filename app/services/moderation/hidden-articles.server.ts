import { hidePost, restoreHidden, type DecisionResult } from "./moderation-decisions.server";
import type { CurrentUser } from "~/lib/types";

/**
 * The article page's form for admins: hide an article, or show a hidden one
 * again, on the moderators' own initiative, with the reason the decision
 * gives (moderation-decisions.server.ts does it, logs it and tells the
 * author). Who may read a hidden article is readablePost's (posts.server.ts).
 */

export const VISIBILITY_INTENTS = ["hide", "restoreHidden"] as const;
export type VisibilityIntent = (typeof VISIBILITY_INTENTS)[number];

export function isVisibilityIntent(value: unknown): value is VisibilityIntent {
  return typeof value === "string" && (VISIBILITY_INTENTS as readonly string[]).includes(value);
}

export const ONLY_ADMINS_HIDE = "Skryť alebo znova zverejniť článok môže len administrátor.";

export async function changeVisibility(user: CurrentUser, postId: string, intent: VisibilityIntent, form: FormData): Promise<DecisionResult> {
  if (!user.isAdmin) return { ok: false, status: 403, error: ONLY_ADMINS_HIDE };
  return intent === "hide" ? await hidePost(user, postId, form) : restoreHidden(user, postId, form);
}

/** A hidden article's pages (the article, its history) are for its author and admins: no cache keeps them, no search engine indexes them. */
export const HIDDEN_PAGE_HEADERS = { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex" };
