import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { endSession } from "~/services/platform/session.server";

export async function action({ request }: ActionFunctionArgs) {
  return endSession(request, "/");
}

/** Signing out is a POST (a form in the header); a plain visit just goes home. */
export function loader() {
  return redirect("/");
}
