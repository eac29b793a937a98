import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAdmin } from "~/services/platform/session.server";
import { subscribersCsv } from "~/services/subscriptions/subscriptions-admin.server";

/** The operator's export of confirmed subscribers: admins only, never cached. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return new Response(subscribersCsv(), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="dejiny-odberatelia.csv"',
      "Cache-Control": "private, no-store",
    },
  });
}
