import { env } from "~/config/env.server";
import { imageUrl } from "~/lib/images";
import { describeChoices, follows, type SubscriptionChoices } from "~/lib/subscriptions";
import { centuryOf, keyYear } from "~/lib/time/periods";
import type { OutboxMail } from "~/models/mail-outbox.server";
import { getPost } from "~/models/posts.server";
import { articlesAnnouncedBetween, getMailing, type Mailing } from "~/models/subscription-mailings.server";
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

type Article = { id: string; title: string; period: string; excerpt: string; image: string; imageWidth: number; imageHeight: number; tags: string[]; century: number | null };

/** Why a queued mail is not sent, or the mail. */
export type Made = { mail: Mail } | { skip: string };

/**
 * The mails of one batch, in its order: each article, digest and subscriber
 * read once however many of the batch's mails name it.
 */
export function makeNewsletterMails(rows: OutboxMail[], now = Date.now()): Made[] {
  const articles = new Map<string, Article | null>();
  const mailings = new Map<string, { mailing: Mailing; articles: (Article & { announcedAt: number })[] } | null>();
  const subscribers = subscribersWithChoices(rows.flatMap((row) => row.subscriberId ?? []));

  const article = (id: string): Article | null => {
    if (!articles.has(id)) {
      const post = getPost(id);
      // Only what every reader may see.
      articles.set(id, post && post.hiddenAt === null ? { ...post, century: post.periodStart === null ? null : centuryOf(keyYear(post.periodStart)) } : null);
    }
    return articles.get(id) ?? null;
  };

  const mailing = (id: string) => {
    if (!mailings.has(id)) {
      const row = getMailing(id);
      const covered = row?.kind === "digest" ? articlesAnnouncedBetween(row.periodStart ?? 0, row.createdAt) : [];
      mailings.set(id, row ? { mailing: row, articles: covered.flatMap(({ postId, announcedAt }) => (article(postId) ? [{ ...article(postId)!, announcedAt }] : [])) } : null);
    }
    return mailings.get(id) ?? null;
  };

  return rows.map((row): Made => {
    const subscriber = row.subscriberId ? subscribers.get(row.subscriberId) : undefined;
    if (!subscriber || subscriber.status !== "confirmed") return { skip: "the subscription has ended" };
    const of = row.mailingId ? mailing(row.mailingId) : null;
    if (!of) return { skip: "its mailing is gone" };
    if (of.mailing.kind === "article") {
      const announced = of.mailing.postId ? article(of.mailing.postId) : null;
      if (!announced) return { skip: "the article is no longer public" };
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
function unsubscribeHeaders(subscriberId: string): Record<string, string> {
  return {
    "List-Unsubscribe": `<${unsubscribeLink(subscriberId)}>, <mailto:${env.listUnsubscribeMailto}?subject=unsubscribe>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}

/** The words at the end of every mail: why it came, and the one link that changes or ends the subscription. */
function footer(subscriber: SubscriberWithChoices & SubscriptionChoices) {
  const why = `Tento e-mail dostávate, lebo ste sa prihlásili na odber nových článkov zo stránky Dejiny (${describeChoices(subscriber)}; ${subscriber.frequency === "weekly" ? "raz za týždeň" : "každý nový článok"}).`;
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
  const intro = `Za posledný týždeň ${pribudlo(all.length)} na stránke Dejiny ${articleCount(all.length)}:`;
  const rest = more > 0 ? [`Ďalšie nájdete na ${env.publicUrl}/posts`] : [];
  const text = [intro, "", ...shown.flatMap((a) => [a.title, ...(a.period ? [a.period] : []), a.excerpt, articleLink(a.id), ""]), ...rest, "", ...end.text].join("\n");
  const html = [
    `<p>${escape(intro)}</p>`,
    ...shown.map((a) => `<h2 style="font-size:18px"><a href="${escape(articleLink(a.id))}">${escape(a.title)}</a></h2>${a.period ? `<p><b>${escape(a.period)}</b></p>` : ""}<p>${escape(a.excerpt)}</p>`),
    ...rest.map((line) => `<p><a href="${escape(`${env.publicUrl}/posts`)}">${escape(line)}</a></p>`),
    end.html,
  ].join("\n");
  const subject = `Dejiny: ${articleCount(all.length)} za týždeň`;
  return { to: subscriber.email, subject, text, html, headers: unsubscribeHeaders(subscriber.id) };
}

/** "1 nový článok", "3 nové články", "5 nových článkov". */
function articleCount(n: number): string {
  return n === 1 ? "1 nový článok" : n >= 2 && n <= 4 ? `${n} nové články` : `${n} nových článkov`;
}

function pribudlo(n: number): string {
  return n === 1 ? "pribudol" : n >= 2 && n <= 4 ? "pribudli" : "pribudlo";
}
