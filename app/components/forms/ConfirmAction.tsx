import { Form, Link } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";

/**
 * The second step of a destructive action: the question, the same form
 * again with confirm=yes, and a way back. The server asks it (no
 * JavaScript needed); with JavaScript it also takes focus.
 */
export function ConfirmAction({
  question,
  fields,
  confirmLabel,
  cancelHref,
  children,
}: {
  question: string;
  fields: Record<string, string>;
  confirmLabel: string;
  cancelHref: string;
  /** What else the step asks for (e.g. the reason of a decision). */
  children?: ReactNode;
}) {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    button.current?.scrollIntoView({ block: "center" });
    button.current?.focus();
  }, [question]);
  return (
    // A form named by its question: a landmark a screen reader can find, and with JavaScript the focus is already in it.
    <Form method="post" className="confirm-box" aria-labelledby="confirm-question">
      <p id="confirm-question">{question}</p>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <input type="hidden" name="confirm" value="yes" />
      {children}
      <div className="button-row">
        <button type="submit" className="button button-danger" ref={button}>
          {confirmLabel}
        </button>
        <Link to={cancelHref} className="button button-secondary" replace>
          Zrušiť
        </Link>
      </div>
    </Form>
  );
}
