import { COMMAND_LINE_ACTOR, type LogAction } from "~/lib/moderation/moderation";
import { appendLogEntry } from "~/models/moderation-log.server";

/** Who moderates: an admin on the site, or whoever runs `npm run admin` on the server. */
export type Actor = { id: string; displayName: string } | "command line";

/** Record what an admin did, naming people and articles as they are now (the entry keeps those names). */
export function logModeration(
  actor: Actor,
  action: LogAction,
  target: { user?: { id: string; displayName: string }; post?: { id: string; title: string }; detail?: string },
): void {
  appendLogEntry({
    createdAt: Date.now(),
    actorId: actor === "command line" ? null : actor.id,
    actorName: actor === "command line" ? COMMAND_LINE_ACTOR : actor.displayName,
    action,
    targetUserId: target.user?.id ?? null,
    targetUserName: target.user?.displayName ?? null,
    targetPostId: target.post?.id ?? null,
    targetPostTitle: target.post?.title ?? null,
    detail: target.detail ?? "",
  });
}
