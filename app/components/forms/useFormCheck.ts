import { useCallback, useState, type FormEvent } from "react";
import type * as z from "zod/mini";
import { checkForm, formProblem } from "~/lib/forms";

/**
 * With JavaScript, a form is checked against its schema (the server's, from
 * ~/lib/forms) before it is sent, and a broken rule is shown at once, as
 * the server would show it. Without JavaScript, or when the browser's check
 * passes, the server checks it all again.
 */
export function useFormCheck<F extends string>(
  schema: z.ZodMiniObject,
  order: readonly F[],
  missing: string,
  /** Fills in what the form's fields do not say directly (e.g. whether an image is given). */
  prepare?: (form: FormData) => void,
) {
  const [problem, setProblem] = useState<{ message: string; invalid: F[] } | null>(null);
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const form = new FormData(event.currentTarget);
    prepare?.(form);
    const checked = checkForm(schema, form);
    const found = checked.ok ? null : formProblem(checked.errors, order, missing);
    setProblem(found);
    if (found) event.preventDefault();
  }
  const clear = useCallback(() => setProblem(null), []);
  return { problem, onSubmit, clear };
}
