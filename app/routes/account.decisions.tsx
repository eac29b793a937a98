import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { AccountSubpage } from "~/components/layout/AccountSubpage";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { FormError, Notice } from "~/components/forms/Messages";
import { useBroughtNotice } from "~/components/layout/BroughtNotice";
import { Statement } from "~/components/moderation/Statement";
import { DECISIONS_NOTICES, type DecisionsNotice } from "~/lib/notices";
import { UNKNOWN_ACTION_MESSAGE } from "~/lib/rules";
import { pageTitle } from "~/lib/site";
import { fileAppeal } from "~/services/moderation/appeals.server";
import { retryAfter } from "~/services/platform/concurrency.server";
import { readForm } from "~/services/platform/forms.server";
import { requireUser } from "~/services/platform/session.server";
import { redirectWithNotice } from "~/services/platform/notice.server";
import { statementsOf } from "~/services/moderation/statements.server";
import { asRefusal, ifStorageFails, onForm } from "~/services/platform/storage-fault.server";

/** "Rozhodnutia o mojom obsahu": the author's statements of reasons, and the appeal of each while it may be filed. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { statements: statementsOf(user.id) };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const decision = Number(form.get("decision"));
  const result = await ifStorageFails(
    async () => (form.get("intent") === "appeal" ? fileAppeal(user.id, decision, form) : { ok: false as const, status: 400, error: UNKNOWN_ACTION_MESSAGE }),
    (fault) => asRefusal(onForm(fault)),
  );
  if (result.ok) return redirectWithNotice<DecisionsNotice>(`/account/decisions#rozhodnutie-${decision}`, "appealed");
  return data({ decision, error: result.error, text: String(form.get("text") ?? "") }, { status: result.status, headers: retryAfter(result.status) });
}

export default function AccountDecisions() {
  const { statements } = useLoaderData<typeof loader>();
  const notice = useBroughtNotice(DECISIONS_NOTICES);
  const result = useActionData<typeof action>();
  // A refusal is said in its statement (at its form, or above its appeal), else at the top.
  const inForm = result && statements.some((s) => s.id === result.decision);
  return (
    <AccountSubpage title="Rozhodnutia o mojom obsahu">
      <Notice text={notice} />
      {result && !inForm && <FormError text={result.error} />}
      <p>
        Keď redakcia skryje alebo odstráni váš článok alebo zablokuje váš účet, nájdete tu, čo rozhodla, prečo a na aký podnet. Do 6 mesiacov môžete proti
        rozhodnutiu raz podať námietku; posúdi ju iný administrátor, než ktorý rozhodol.
      </p>
      {statements.length === 0 ? (
        <p>O vašom obsahu redakcia nerozhodla nič.</p>
      ) : (
        statements.map((statement) => (
          <Statement
            key={statement.id}
            statement={statement}
            error={result?.decision === statement.id ? result.error : null}
            text={result?.decision === statement.id ? result.text : undefined}
          />
        ))
      )}
    </AccountSubpage>
  );
}

export const meta: MetaFunction = () => [{ title: pageTitle("Rozhodnutia o mojom obsahu") }, { name: "robots", content: "noindex" }];
