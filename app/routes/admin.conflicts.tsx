import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { AdminNav } from "~/components/moderation/Admin";
import { ConflictsEditor } from "~/components/moderation/ConflictsEditor";
import { conflictValues } from "~/lib/conflicts";
import type { AdminNotice } from "~/lib/notices";
import { pageTitle } from "~/lib/site";
import { retryAfter } from "~/services/platform/concurrency.server";
import { conflictsForAdmin, removeConflict, saveConflict, type ConflictResult } from "~/services/articles/conflicts.server";
import { readForm } from "~/services/platform/forms.server";
import { requireAdmin } from "~/services/platform/session.server";
import { redirectWithNotice } from "~/services/platform/notice.server";
import { asRefusal, ifStorageFails } from "~/services/platform/storage-fault.server";

/** The admins' forms of "Aktuálne konflikty" post here; /admin shows the same forms. A refused form is shown again here, as typed. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return { entries: conflictsForAdmin() };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  const rawId = String(form.get("id") ?? "");
  const id = rawId === "new" ? null : /^\d{1,12}$/.test(rawId) ? Number(rawId) : undefined;
  if (id === undefined) throw data(null, { status: 400 });
  const intent = form.get("intent");
  const result = await ifStorageFails(
    async (): Promise<ConflictResult> => (intent === "delete" && id !== null ? removeConflict(admin, id) : saveConflict(admin, id, form)),
    (fault) => ({ ...asRefusal(fault), invalid: [], values: conflictValues(form), id }),
  );
  if (result.ok) return redirectWithNotice<AdminNotice>("/admin#konflikty", "conflict");
  const { status, error, invalid, values } = result;
  return data({ refused: { id: result.id, error, invalid, values } }, { status, headers: retryAfter(status) });
}

export default function AdminConflicts() {
  const { entries } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <main id="obsah" className="page admin-page">
      <h1>Aktuálne konflikty</h1>
      <AdminNav />
      <p>
        <Link to="/conflicts">Ako stránku vidia čitatelia</Link>
      </p>
      <ConflictsEditor entries={entries} refused={result?.refused ?? null} />
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: pageTitle("Aktuálne konflikty – administrácia") }, { name: "robots", content: "noindex" }];
