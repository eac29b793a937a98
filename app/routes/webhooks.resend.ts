import type { ActionFunctionArgs } from "@remix-run/node";
import { readBodyUpTo } from "~/services/platform/forms.server";
import { MAX_EVENT_BYTES, providerEventsEnabled, receiveProviderEvent } from "~/services/subscriptions/provider-events.server";

/**
 * Resend's webhook: its reports of bounces and complaints, signed the Svix
 * way (app/services/subscriptions/provider-events.server.ts). Only with
 * RESEND_WEBHOOK_SECRET set; otherwise, and for a GET, 404. The request
 * comes from Resend's servers, with no cookie and no Origin: the site's
 * cross-site check lets such requests through, and the signature is the
 * only key. Answers are plain text and never say more than what was wrong.
 */

const plain = (status: number, text: string) => new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

const NOT_FOUND = "Stránka, ktorú hľadáte, neexistuje alebo bola odstránená.";

export function loader() {
  return plain(404, NOT_FOUND);
}

export async function action({ request }: ActionFunctionArgs) {
  if (!providerEventsEnabled() || request.method !== "POST") return plain(404, NOT_FOUND);
  const body = await readBodyUpTo(request, MAX_EVENT_BYTES);
  const { status, text } = receiveProviderEvent(request.headers, body);
  return plain(status, text);
}
