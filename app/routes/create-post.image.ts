import type { ActionFunctionArgs } from "@remix-run/node";
import { MESSAGES } from "~/lib/rules";
import { retryAfter } from "~/services/platform/concurrency.server";
import { withUploadedForm } from "~/services/articles/post-upload.server";
import { acceptImage, keepPending } from "~/services/articles/posts.server";
import { getCurrentUser } from "~/services/platform/session.server";
import { ifStorageFails } from "~/services/platform/storage-fault.server";

/**
 * With JavaScript, the create form sends its image here as soon as it is
 * picked (with a progress bar and a cancel button), then submits only the
 * returned key. Without JavaScript the image goes with the form instead.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await getCurrentUser(request);
  if (!user) return Response.json({ error: "Vaše prihlásenie vypršalo. Prihláste sa, prosím, znova a obrázok nahrajte ešte raz." }, { status: 401 });
  return withUploadedForm(user.id, request, async ({ input, refusal }) => {
    if (refusal) return Response.json({ error: refusal.error }, { status: refusal.status, headers: retryAfter(refusal.status) });
    if (!input.image) return Response.json({ error: MESSAGES.createFieldsMissing }, { status: 400 });
    const image = input.image;
    return ifStorageFails(
      async () => {
        const accepted = await acceptImage(user.id, image);
        if (!accepted.ok) return Response.json({ error: accepted.error }, { status: accepted.status, headers: retryAfter(accepted.status) });
        return Response.json({ key: keepPending(accepted.image, user.id) });
      },
      ({ status, error, headers }) => Response.json({ error }, { status, headers }),
    );
  });
}
