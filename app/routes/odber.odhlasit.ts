import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { ifStorageFails } from "~/services/platform/storage-fault.server";
import { unsubscribe } from "~/services/subscriptions/manage.server";

/**
 * The List-Unsubscribe address of every subscription mail (RFC 8058). A
 * POST (`List-Unsubscribe=One-Click`, from the reader's mail provider, with
 * no cookie and no Origin) ends the subscription at once: the signed token
 * in the address is the only key, and only the subscriber's mailbox holds
 * it, so nobody else can send the request, and the worst a forged one can
 * do is end a subscription. A GET ends nothing (link scanners fetch links):
 * it leads to the page with the button.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return redirect(`/odber/zrusit?token=${encodeURIComponent(token)}`, 303);
}

const plain = (status: number, text: string) => new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

export async function action({ request }: ActionFunctionArgs) {
  // The body says only "One-Click" and is not needed: the address names the subscription.
  const token = new URL(request.url).searchParams.get("token");
  return ifStorageFails(
    () => (unsubscribe(token) === "ended" ? plain(200, "Odber je zrušený.") : plain(400, "Tento odkaz na zrušenie odberu je neplatný.")),
    ({ status, error, headers }) => new Response(error, { status, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" } }),
  );
}
