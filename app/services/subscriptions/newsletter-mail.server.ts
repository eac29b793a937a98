import { env } from "~/config/env.server";
import { imageUrl } from "~/lib/images";
import { describeChoices, follows, type SubscriptionChoices } from "~/lib/subscriptions";
import { centuryOf, keyYear } from "~/lib/time/periods";
import type { OutboxMail } from "~/models/mail-outbox.server";
import { articlesAnnouncedBetween, getMailing, publicArticleSummaries, type Mailing } from "~/models/subscription-mailings.server";
import { subscribersWithChoices, type SubscriberWithChoices } from "~/models/subscriptions.server";
import type { Mail } from "~/services/platform/mail.server";
import { manageLink, manageToken, unsubscribeLink } from "./subscription-links.server";

/**
 * A subscription's mail, made when it is sent rather than when it was
 * queued: an article hidden or deleted meanwhile is not mailed, an ended
 * subscription gets nothing, and 10,000 queued mails store no text. Plain
 * enough for any mail client: a text part and a simple HTML part of the
 * same words, and List-Unsubscribe with List-Unsubscribe-Post (RFC 8058).
 */

/** A digest lists at most this many articles; the rest are on the site. */
export const DIGEST_MAX_ARTICLES = 30;
/** A digest looks at most at the newest this many articles of its week, whatever some authors publish. */
export const DIGEST_CANDIDATES = 300;

type Article = ReturnType<typeof publicArticleSummaries>[number] & { century: number | null };

/** Why a queued mail is not sent, or the mail. */
export type Made = { mail: Mail } | { skip: string };

/** Public articles of `ids` as a mail shows them, with the century their period starts in. */
export function articlesForMail(ids: string[]): Map<string, Article> {
  return new Map(publicArticleSummaries(ids).map((a) => [a.id, { ...a, century: a.periodStart === null ? null : centuryOf(keyYear(a.periodStart)) }]));
}

/** The public articles a digest covers, in the order they were announced. */
export function digestArticles(mailing: Mailing): (Article & { announcedAt: number })[] {
  const covered = articlesAnnouncedBetween(mailing.periodStart ?? 0, mailing.createdAt, DIGEST_CANDIDATES);
  const articles = articlesForMail(covered.map((c) => c.postId));
  return covered.flatMap(({ postId, announcedAt }) => {
    const article = articles.get(postId);
    return article ? [{ ...article, announcedAt }] : [];
  });
}

/**
 * The mails of one batch, in its order: each article, digest and subscriber
 * read once however many of the batch's mails name it.
 */
export function makeNewsletterMails(rows: OutboxMail[], now = Date.now()): Made[] {
  const mailings = new Map<string, { mailing: Mailing; articles: (Article & { announcedAt: number })[] } | null>();
  const subscribers = subscribersWithChoices(rows.flatMap((row) => row.subscriberId ?? []));

  const mailing = (id: string) => {
    if (!mailings.has(id)) {
      const row = getMailing(id);
      const articles = row?.kind === "digest" ? digestArticles(row) : row?.postId ? [...articlesForMail([row.postId]).values()].map((a) => ({ ...a, announcedAt: row.createdAt })) : [];
      mailings.set(id, row ? { mailing: row, articles } : null);
    }
    return mailings.get(id) ?? null;
  };

  return rows.map((row): Made => {
    const subscriber = row.subscriberId ? subscribers.get(row.subscriberId) : undefined;
    if (!subscriber || subscriber.status !== "confirmed") return { skip: "the subscription has ended" };
    const of = row.mailingId ? mailing(row.mailingId) : null;
    if (!of) return { skip: "its mailing is gone" };
    if (of.mailing.kind === "article") {
      const [announced] = of.articles;
      if (!announced) return { skip: "the article is no longer public" };
      // Changed since it was queued: to weekly (the digest will have it), or away from the article's topics.
      if (subscriber.frequency !== "instant" || !follows(subscriber, announced)) return { skip: "the subscription no longer follows it" };
      return { mail: articleMail(subscriber, announced) };
    }
    // A digest: the articles this subscriber follows, announced since it confirmed, still public.
    const chosen = of.articles.filter((a) => a.announcedAt > (subscriber.confirmedAt ?? now) && follows(subscriber, a));
    if (chosen.length === 0) return { skip: "no article of the digest is public and followed" };
    return { mail: digestMail(subscriber, chosen) };
  });
}

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const articleLink = (id: string) => `${env.publicUrl}/posts/${id}`;

/** RFC 8058: one POST to the https address ends the subscription; the mailto goes to a mailbox the operator reads. */
export function unsubscribeHeaders(subscriberId: string): Record<string, string> {
  return {
    "List-Unsubscribe": `<${unsubscribeLink(subscriberId)}>, <mailto:${env.listUnsubscribeMailto}?subject=unsubscribe>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}

/** The words at the end of every mail: why it came, and the one link that changes or ends the subscription. */
function footer(subscriber: SubscriberWithChoices & SubscriptionChoices) {
  const why = `Tento e-mail dostávate, lebo ste sa prihlásili na odber nových článkov zo stránky Dejiny (${describeChoices(subscriber)}; ${subscriber.frequency === "weekly" ? "raz za týždeň" : "hneď po uverejnení"}).`;
  const manage = manageLink(subscriber.id);
  const end = `${env.publicUrl}/odber/zrusit?token=${manageToken(subscriber.id)}`;
  return {
    // "-- " (with its space): where mail clients see a signature begin.
    text: ["-- ", why, `Zmeniť odber: ${manage}`, `Zrušiť odber: ${end}`],
    html: `<hr><p style="font-size:13px;color:#555">${escape(why)}<br><a href="${escape(manage)}">Zmeniť odber</a> · <a href="${escape(end)}">Zrušiť odber</a></p>`,
  };
}

function articleMail(subscriber: SubscriberWithChoices, article: Article): Mail {
  const link = articleLink(article.id);
  const end = footer(subscriber);
  const height = Math.round((600 * article.imageHeight) / article.imageWidth);
  const text = ["Nový článok na stránke Dejiny:", "", article.title, ...(article.period ? [article.period] : []), "", article.excerpt, "", `Čítajte ďalej: ${link}`, "", ...end.text].join("\n");
  const html = [
    `<p>Nový článok na stránke Dejiny:</p>`,
    `<p><a href="${escape(link)}"><img src="${escape(env.publicUrl + imageUrl(article.image, 800, "jpg"))}" alt="" width="600" height="${height}" style="max-width:100%;height:auto"></a></p>`,
    `<h1 style="font-size:22px"><a href="${escape(link)}">${escape(article.title)}</a></h1>`,
    article.period ? `<p><b>${escape(article.period)}</b></p>` : "",
    `<p>${escape(article.excerpt)}</p>`,
    `<p><a href="${escape(link)}">Čítajte ďalej</a></p>`,
    end.html,
  ].join("\n");
  return { to: subscriber.email, subject: `Nový článok: ${article.title}`, text, html, headers: unsubscribeHeaders(subscriber.id) };
}

function digestMail(subscriber: SubscriberWithChoices, all: Article[]): Mail {
  const shown = all.slice(0, DIGEST_MAX_ARTICLES);
  const more = all.length - shown.length;
  const end = footer(subscriber);
  const intro = `Na stránke Dejiny ${pribudlo(all.length)} ${articleCount(all.length)} z tém, ktoré sledujete:`;
  const rest = more > 0 ? [`Ďalšie nájdete na ${env.publicUrl}/posts`] : [];
  const text = [intro, "", ...shown.flatMap((a) => [a.title, ...(a.period ? [a.period] : []), a.excerpt, articleLink(a.id), ""]), ...rest, "", ...end.text].join("\n");
  const html = [
    `<p>${escape(intro)}</p>`,
    ...shown.map((a) => `<h2 style="font-size:18px"><a href="${escape(articleLink(a.id))}">${escape(a.title)}</a></h2>${a.period ? `<p><b>${escape(a.period)}</b></p>` : ""}<p>${escape(a.excerpt)}</p>`),
    ...rest.map((line) => `<p><a href="${escape(`${env.publicUrl}/posts`)}">${escape(line)}</a></p>`),
    end.html,
  ].join("\n");
  const subject = `Dejiny: týždenný prehľad, ${articleCount(all.length)}`;
  return { to: subscriber.email, subject, text, html, headers: unsubscribeHeaders(subscriber.id) };
}

/** "1 nový článok", "3 nové články", "5 nových článkov". */
function articleCount(n: number): string {
  return n === 1 ? "1 nový článok" : n >= 2 && n <= 4 ? `${n} nové články` : `${n} nových článkov`;
}

function pribudlo(n: number): string {
  return n === 1 ? "pribudol" : n >= 2 && n <= 4 ? "pribudli" : "pribudlo";
}
