import { DISPLAY_NAME_MAX_LENGTH, SUMMARY_MAX_LENGTH } from "~/lib/rules";

type Props = {
  name: string;
  /** Defaults to field-<name>; give one when a page has two fields of the same name. */
  id?: string;
  label: string;
  type?: string;
  autoComplete?: string;
  defaultValue?: string;
  /** Marks the field red (aria-invalid) and points to the form's error message. */
  invalid?: boolean;
  errorId?: string;
  required?: boolean;
  maxLength?: number;
  minLength?: number;
  placeholder?: string;
};

/** A labelled input that says when it is wrong, and why, to screen readers too. */
export function Field({ name, id = `field-${name}`, label, type = "text", invalid = false, errorId, ...input }: Props) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid && errorId ? errorId : undefined}
        {...input}
      />
    </div>
  );
}

/** The display name, with the registration's rules (register, the account page). */
export function DisplayNameField({ defaultValue, invalid, errorId }: { defaultValue?: string; invalid?: boolean; errorId: string }) {
  return (
    <Field
      name="displayName"
      label="Zobrazované meno"
      autoComplete="nickname"
      maxLength={DISPLAY_NAME_MAX_LENGTH}
      required
      defaultValue={defaultValue}
      invalid={invalid}
      errorId={errorId}
    />
  );
}

/** A new password and its confirmation (register, reset): what the browser may suggest a strong password for. */
export function NewPasswordFields({ label, invalid, errorId }: { label: string; invalid: readonly string[]; errorId: string }) {
  return (
    <>
      <Field name="password" label={label} type="password" autoComplete="new-password" required invalid={invalid.includes("password")} errorId={errorId} />
      <Field
        name="confirmPassword"
        label="Potvrdenie hesla"
        type="password"
        autoComplete="new-password"
        required
        invalid={invalid.includes("confirmPassword")}
        errorId={errorId}
      />
    </>
  );
}

/** "Čo ste zmenili?": an edit's one-line summary (the edit form, a pending edit's draft). */
export function SummaryField({ defaultValue, invalid, errorId }: { defaultValue: string; invalid: boolean; errorId: string }) {
  return (
    <Field
      name="summary"
      label="Čo ste zmenili?"
      placeholder="Nepovinné, napr. opravený rok bitky"
      maxLength={SUMMARY_MAX_LENGTH}
      defaultValue={defaultValue}
      invalid={invalid}
      errorId={errorId}
    />
  );
}
