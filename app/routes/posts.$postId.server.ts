import { data, redirect } from "@remix-run/node";
import { listHref, readListState } from "~/lib/links";
import { BUSY_MESSAGE, canModify, CONTENT_MAX_LENGTH, contentMarkupProblem, hasHiddenControls, POST_MESSAGES, TITLE_MAX_LENGTH, typedText } from "~/lib/rules";
import { deletePost, getPost, updatePost } from "~/models/posts.server";
import { formText } from "~/services/auth.server";
import { BusyError, retryAfter } from "~/services/concurrency.server";
import { ContentProcessingError, excerptOf, toStoredContent } from "~/services/content.server";
import { readForm } from "~/services/forms.server";
import { deleteImage } from "~/services/images.server";
import { getCurrentUser } from "~/services/session.server";
import { editAttempts, reserve } from "~/services/throttle.server";

/**
 * Save or delete an article: only its author or an admin, checked here on
 * every request, whatever the form contains. Without `confirm=yes` a delete
 * answers with the confirmation step (the no-JavaScript path).
 */
export async function changePost(request: Request, postId: string) {
  const user = await getCurrentUser(request);
  const post = getPost(postId);
  if (!post) throw data(null, { status: 404 });
  if (!user || !canModify(user, post)) return data({ error: POST_MESSAGES.forbidden, confirmDelete: false }, { status: 403 });

  const form = await readForm(request);
  const url = new URL(request.url);
  const list = readListState(url.searchParams);
  const intent = form.get("intent");

  if (intent === "delete") {
    if (form.get("confirm") !== "yes") return { error: null, confirmDelete: true };
    const image = deletePost(post.id);
    if (image) await deleteImage(image);
    return redirect(listHref(list), 303);
  }
  if (intent === "save") {
    const title = formText(form, "title").trim();
    const content = typedText(formText(form, "content"));
    if (!title || !content.trim()) return data({ error: POST_MESSAGES.emptyEdit, confirmDelete: false }, { status: 400 });
    if (title.length > TITLE_MAX_LENGTH) return data({ error: POST_MESSAGES.titleTooLong, confirmDelete: false }, { status: 400 });
    if (hasHiddenControls(title)) return data({ error: POST_MESSAGES.titleControls, confirmDelete: false }, { status: 400 });
    if (content.length > CONTENT_MAX_LENGTH) return data({ error: POST_MESSAGES.contentTooLong, confirmDelete: false }, { status: 400 });
    const markup = contentMarkupProblem(content);
    if (markup) return data({ error: markup, confirmDelete: false }, { status: 400 });
    if (!reserve(editAttempts(user.id))) return data({ error: POST_MESSAGES.editQuota, confirmDelete: false }, { status: 429 });
    let stored: string;
    try {
      stored = await toStoredContent(content);
    } catch (error) {
      if (error instanceof BusyError) return data({ error: BUSY_MESSAGE, confirmDelete: false }, { status: 503, headers: retryAfter(503) });
      if (!(error instanceof ContentProcessingError)) throw error;
      console.error("Could not sanitise an edited article", error.cause);
      return data({ error: POST_MESSAGES.contentFailed, confirmDelete: false }, { status: 400 });
    }
    updatePost(post.id, { title, content: stored, excerpt: excerptOf(stored) });
    url.searchParams.delete("edit");
    return redirect(`${url.pathname}${url.search}`, 303);
  }
  return data({ error: null, confirmDelete: false }, { status: 400 });
}
