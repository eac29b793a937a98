/** Shapes the pages share with the server, so that components need not reach into models. */

/** The signed-in reader as every page knows them: the root loader's `user`. */
export type SignedInUser = { id: string; displayName: string; isAdmin: boolean };

/**
 * The signed-in user as the server knows them (a session's user: every
 * capability asks who is asking); `emailConfirmedAt`: when their address
 * was confirmed (ms since epoch), null while it is not.
 */
export type CurrentUser = SignedInUser & { email: string; emailConfirmedAt: number | null };

/** An article as its card in the list shows it. */
/** `period`: when its events happened, as its author typed it (~/lib/time/periods); empty when not said. */
export type PostCard = { id: string; title: string; excerpt: string; image: string; imageWidth: number; imageHeight: number; period: string };
