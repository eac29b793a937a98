import { Client } from "../../scripts/lib/client";
import { TEST_PUBLIC_URL } from "./accounts-env";
import { sentMails, waitForMail } from "../../scripts/lib/resend-stand-in";

/** The subject of a subscription's confirmation mail. */
export const CONFIRMATION_SUBJECT = /^Potvrdenie odberu/;

/**
 * Subscribe `email` by the /odber form as a browser without JavaScript does,
 * and press the button of the link the stand-in received: the settings
 * page's path (with its signed token), and the client that did it.
 */
export async function confirmedSubscription(base: string, standInUrl: string, email: string, fields: Record<string, string | string[]> = {}) {
  const client = new Client(base);
  const before = (await sentMails(standInUrl)).filter((m) => [m.to].flat().includes(email) && CONFIRMATION_SUBJECT.test(m.subject)).length;
  await client.post("/odber", { zdroj: "odber", frequency: "instant", email, ...fields });
  const mail = await waitForMail(standInUrl, email, before, CONFIRMATION_SUBJECT);
  const path = mail.text.match(/\S+\/odber\/potvrdit\?token=\S+/)![0].slice(TEST_PUBLIC_URL.length);
  const confirmed = await client.post(path, { token: new URLSearchParams(path.split("?")[1]).get("token")! });
  if (confirmed.response.status !== 303) throw new Error(`confirming ${email} answered ${confirmed.response.status}`);
  const settings = confirmed.response.headers.get("location")!;
  return { client, settings, token: new URLSearchParams(settings.split("?")[1]).get("token")! };
}
