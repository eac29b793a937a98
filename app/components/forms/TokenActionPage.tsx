import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { FormError } from "./Messages";

type Props = {
  /** The page's heading. */
  title: string;
  /** The mailed link's token, sent back with the button. */
  token: string;
  /** Whether the link still works (the loader's answer); if not, the page shows `invalid` and a way on instead of the button. */
  usable: boolean;
  /** What the button does, in a sentence above it. */
  children: ReactNode;
  /** The button's words. */
  button: string;
  /** Why the button's POST was refused while the link still works (a storage fault). */
  error: string | null | undefined;
  /** What the page says when the link no longer works. */
  invalid: string;
  /** Where to go instead then. */
  elsewhere: { to: string; text: string };
};

/**
 * The page a mailed link opens (confirm an address, confirm or end a
 * subscription): a heading, a sentence and one POST button carrying the
 * link's token. Opening the link changes nothing, since mail scanners open
 * links; only the button acts.
 */
export function TokenActionPage({ title, token, usable, children, button, error, invalid, elsewhere }: Props) {
  return (
    <main id="obsah" className="page auth-single">
      <h1>{title}</h1>
      {usable ? (
        <Form method="post" replace className="auth-form">
          <input type="hidden" name="token" value={token} />
          <FormError text={error} />
          <p>{children}</p>
          <button type="submit" className="button">
            {button}
          </button>
        </Form>
      ) : (
        <>
          {/* The loader's answer after a refused POST too: the link no longer works. */}
          <FormError text={invalid} />
          <p>
            <Link to={elsewhere.to}>{elsewhere.text}</Link>
          </p>
        </>
      )}
    </main>
  );
}
