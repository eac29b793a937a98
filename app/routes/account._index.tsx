import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { DisplayNameField, Field, NewPasswordFields } from "~/components/forms/Field";
import { ArticleList, FormError, Notice } from "~/components/forms/Messages";
import { Pager } from "~/components/layout/Pager";
import { useBroughtNotice } from "~/components/layout/BroughtNotice";
import { useFocusFirstError } from "~/components/forms/useFocusFirstError";
import { formatDate, formatDateAtTime, formatDateTime, isoTime } from "~/lib/time/dates";
import { DRAFTS_PER_ACCOUNT, draftKind } from "~/lib/drafts";
import { articleCount, pageWindow, parsePage } from "~/lib/moderation/moderation";
import { ACCOUNT_NOTICES, type AccountNotice, type SignInNotice } from "~/lib/notices";
import { UNKNOWN_ACTION_MESSAGE } from "~/lib/rules";
import { pageTitle } from "~/lib/site";
import { describeUserAgent } from "~/lib/user-agent";
import { listDraftsOf } from "~/models/drafts.server";
import { countStatementsOf } from "~/models/decisions.server";
import { countPostsOf, listPostsOf } from "~/models/posts.server";
import { changePassword, renameAccount, type AccountResult } from "~/services/accounts/account.server";
import { retryAfter } from "~/services/platform/concurrency.server";
import { resendConfirmationLink } from "~/services/accounts/email-confirmation.server";
import { readsOf } from "~/services/articles/reads.server";
import { readForm } from "~/services/platform/forms.server";
import { asRefusal, ifStorageFails, onForm } from "~/services/platform/storage-fault.server";
import { endSession, endSessionOf, requireSession, sessionsOf } from "~/services/platform/session.server";
import { noticeCookieHeader, redirectWithNotice } from "~/services/platform/notice.server";
import { requesterFor } from "~/services/accounts/trusted-devices.server";

const ARTICLES_PER_PAGE = 20;

type Intent = "rename" | "password" | "resendConfirmation";

export async function loader({ request }: LoaderFunctionArgs) {
  const { user, idHash } = await requireSession(request);
  const params = new URL(request.url).searchParams;
  const total = countPostsOf(user.id);
  const window = pageWindow(parsePage(params.get("page")), total, ARTICLES_PER_PAGE);
  const rows = listPostsOf(user.id, window);
  return {
    account: { displayName: user.displayName, email: user.email, isAdmin: user.isAdmin, emailConfirmed: user.emailConfirmedAt !== null },
    articles: { rows, total, page: window.page, pages: window.pages, reads: readsOf(rows.map((row) => row.id)) },
    // All of them: an account keeps at most DRAFTS_PER_ACCOUNT.
    drafts: listDraftsOf(user.id, DRAFTS_PER_ACCOUNT),
    sessions: sessionsOf(user.id, idHash).map((s) => ({ ...s, device: describeUserAgent(s.userAgent) })),
    statements: countStatementsOf(user.id),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const session = await requireSession(request);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "endAll") return endSession(request, "/signinsignup", { everywhere: true, notice: await noticeCookieHeader<SignInNotice>("signedOutEverywhere") });
  if (intent === "endSession") {
    // Only a session of this account; any other handle changes nothing.
    endSessionOf(session.user.id, String(form.get("session") ?? ""));
    return redirectWithNotice<AccountNotice>("/account#zariadenia", "endSession");
  }
  if (intent === "resendConfirmation") {
    const sent = await ifStorageFails(() => resendConfirmationLink(session.user, context.clientAddress), asRefusal);
    // An address confirmed meanwhile (another tab, the link) needs no link: nothing was sent.
    if (sent.ok) return redirectWithNotice<AccountNotice>("/account", session.user.emailConfirmedAt === null ? "confirmationSent" : undefined);
    return data({ intent: "resendConfirmation" as Intent, error: sent.error, invalid: [] as string[], values: {} }, { status: sent.status, headers: retryAfter(sent.status) });
  }
  if (intent !== "rename" && intent !== "password") return data({ intent: null, error: UNKNOWN_ACTION_MESSAGE, invalid: [], values: {} }, { status: 400 });
  const result: AccountResult = await ifStorageFails(
    async () =>
      intent === "rename"
        ? renameAccount(session.user, form)
        : changePassword(session, form, await requesterFor(request, context.clientAddress, { userId: session.user.id })),
    (fault) => asRefusal(intent === "rename" ? onForm(fault) : fault),
  );
  if (result.ok) return redirectWithNotice<AccountNotice>("/account", intent);
  const values = intent === "rename" ? { displayName: String(form.get("displayName") ?? "") } : {};
  return data({ intent: intent as Intent, error: result.error, invalid: result.invalid, values }, { status: result.status, headers: retryAfter(result.status) });
}

export default function Account() {
  const { account, articles, drafts, sessions, statements } = useLoaderData<typeof loader>();
  const notice = useBroughtNotice(ACCOUNT_NOTICES);
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const failed = (intent: Intent) => (result?.intent === intent ? result : undefined);
  const renameForm = useFocusFirstError(failed("rename"));
  const passwordForm = useFocusFirstError(failed("password"));

  return (
    <main id="obsah" className="page account-page">
      <h1>Môj účet</h1>
      <Notice text={notice} />
      <FormError text={result && !result.intent ? result.error : null} />

      <section aria-labelledby="moje-clanky">
        <h2 id="moje-clanky">Moje články</h2>
        {articles.total === 0 ? (
          <p>
            Zatiaľ ste neuverejnili žiadny článok. <Link to="/create-post">Pridať článok</Link>
          </p>
        ) : (
          <>
            <p>Spolu {articleCount(articles.total)}, od najnovšieho. Pri každom vidíte, koľkokrát ho čitatelia otvorili za posledných 7 a 30 dní; vaše vlastné zobrazenia sa nepočítajú.</p>
            <ArticleList articles={articles.rows} editable reads={articles.reads} />
            <Pager page={articles.page} pages={articles.pages} hrefOf={(page) => `/account?page=${page}`} label="Stránky mojich článkov" />
          </>
        )}
      </section>

      <section aria-labelledby="koncepty">
        <h2 id="koncepty">Koncepty</h2>
        {drafts.length === 0 ? (
          <p>Nemáte žiadne koncepty. Koncept uložíte tlačidlom „Uložiť koncept“ pri písaní alebo úprave článku; vidíte ho iba vy.</p>
        ) : (
          <>
            <p>Vidíte ich iba vy (a administrátori), od naposledy uloženého; najviac {DRAFTS_PER_ACCOUNT}.</p>
            <ul className="plain-list article-list draft-list">
              {drafts.map((draft) => (
                <li key={draft.id}>
                  <Link to={`/drafts/${draft.id}`} className="article-list-title">
                    {draft.title}
                  </Link>
                  <span className="muted">
                    {draftKind(draft.postId ? (draft.postTitle ?? "") : null)} · uložené{" "}
                    <time dateTime={isoTime(draft.updatedAt)}>{formatDateTime(draft.updatedAt)}</time>
                  </span>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>

      <section aria-labelledby="hlasenia-a-rozhodnutia">
        <h2 id="hlasenia-a-rozhodnutia">Hlásenia a rozhodnutia</h2>
        <ul className="plain-list">
          <li>
            <Link to="/account/reports">Moje hlásenia</Link> — čo ste nahlásili a čo o tom redakcia rozhodla
          </li>
          <li>
            <Link to="/account/decisions">Rozhodnutia o mojom obsahu</Link>
            {statements > 0 ? ` (${statements})` : ""} — ak redakcia skryla alebo odstránila váš článok, prečo, a námietka proti tomu
          </li>
        </ul>
      </section>

      <section aria-labelledby="profil">
        <h2 id="profil">Profil</h2>
        <p>
          E-mail: <strong>{account.email}</strong> · {account.emailConfirmed ? "potvrdený" : "nepotvrdený"}
          {account.isAdmin && <> · administrátor</>}
        </p>
        {!account.emailConfirmed && (
          <Form method="post" className="stack-form confirm-form">
            <input type="hidden" name="intent" value="resendConfirmation" />
            <p>
              Kým adresu nepotvrdíte, posielame na ňu iba odkazy na potvrdenie a na obnovenie hesla. Čo redakcia rozhodla o vašich hláseniach a článkoch, nájdete len tu, v častiach Moje hlásenia a Rozhodnutia o mojom obsahu. Adresu potvrdíte odkazom z e-mailu, ktorý platí 24 hodín; ak ho nemáte alebo vypršal, pošlite si nový.
            </p>
            <FormError text={failed("resendConfirmation")?.error} />
            <button type="submit" className="button button-secondary" disabled={busy}>
              Poslať odkaz na potvrdenie
            </button>
          </Form>
        )}
        <Form method="post" className="stack-form" noValidate ref={renameForm}>
          <input type="hidden" name="intent" value="rename" />
          <FormError id="rename-error" text={failed("rename")?.error} />
          <DisplayNameField
            defaultValue={failed("rename")?.values.displayName ?? account.displayName}
            invalid={failed("rename")?.invalid.includes("displayName")}
            errorId="rename-error"
          />
          <button type="submit" className="button" disabled={busy}>
            Uložiť meno
          </button>
        </Form>
      </section>

      <section aria-labelledby="heslo">
        <h2 id="heslo">Zmena hesla</h2>
        <p>Po zmene hesla sa odhlásia všetky ostatné zariadenia.</p>
        {/* Keyed by the result, so that a refusal clears the passwords typed. */}
        <Form method="post" className="stack-form" noValidate ref={passwordForm} key={failed("password") ? result!.error : "password"}>
          <input type="hidden" name="intent" value="password" />
          <input type="hidden" name="username" autoComplete="username" value={account.email} />
          <FormError id="password-error" text={failed("password")?.error} />
          <Field
            name="currentPassword"
            label="Súčasné heslo"
            type="password"
            autoComplete="current-password"
            required
            invalid={failed("password")?.invalid.includes("currentPassword")}
            errorId="password-error"
          />
          <NewPasswordFields label="Nové heslo" invalid={failed("password")?.invalid ?? []} errorId="password-error" />
          <button type="submit" className="button" disabled={busy}>
            Zmeniť heslo
          </button>
        </Form>
      </section>

      <section aria-labelledby="zariadenia">
        <h2 id="zariadenia">Prihlásené zariadenia</h2>
        <ul className="plain-list session-list">
          {sessions.map((s) => (
            <li key={s.handle}>
              <span>
                <strong>{s.device}</strong>
                {s.current && <span className="badge">toto zariadenie</span>}
                <br />
                <span className="muted">
                  naposledy aktívne <time dateTime={isoTime(s.lastSeenAt)}>{formatDateAtTime(s.lastSeenAt)}</time> · prihlásené{" "}
                  <time dateTime={isoTime(s.createdAt)}>{formatDate(s.createdAt)}</time>
                </span>
              </span>
              {!s.current && (
                <Form method="post">
                  <input type="hidden" name="intent" value="endSession" />
                  <input type="hidden" name="session" value={s.handle} />
                  <button type="submit" className="button button-secondary button-small" aria-label={`Odhlásiť zariadenie ${s.device}`}>
                    Odhlásiť
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
        <Form method="post">
          <input type="hidden" name="intent" value="endAll" />
          <button type="submit" className="button button-secondary">
            Odhlásiť sa všade
          </button>
        </Form>
      </section>

      <section aria-labelledby="zrusenie">
        <h2 id="zrusenie">Zrušenie účtu</h2>
        <p>Účet môžete kedykoľvek natrvalo zrušiť spolu so všetkými svojimi článkami.</p>
        <Link to="/account/delete" className="button button-danger">
          Zrušiť účet…
        </Link>
      </section>
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: pageTitle("Môj účet") }, { name: "robots", content: "noindex" }];
