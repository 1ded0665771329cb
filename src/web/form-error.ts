// Where a form's failure goes: beside the field it is about, or above the form's buttons.
import { Failure, messageOf } from './api.ts';

export interface FormError {
  /** The field it is about; none: the form's own. */
  field?: string;
  message: string;
}

/**
 * The form field a failure is about: the server's own `field`, or else the first of `names` its
 * message starts with (the API's messages name their parameter first, e.g. "url must be ...").
 */
function fieldOf(err: Failure, names: string[]): string | undefined {
  if (err.field) return err.field;
  return names.find((n) => err.message.startsWith(`${n} `) || err.message.startsWith(`${n}:`));
}

/**
 * A failure placed beside its field: the API's messages name their parameter first (`name is
 * required`, `domains.1: ...`); a 409 (`Competitor "X" already exists`) and a 402 (the prompt
 * limit) are about the field that names the thing, `byStatus`. Anything else is the form's.
 */
export function formError(err: unknown, fields: string[], byStatus: Partial<Record<number, string>> = {}): FormError {
  const message = messageOf(err);
  if (!(err instanceof Failure)) return { message };
  // A list's item is `domains.1: ...`.
  const named = fieldOf(err, fields) ?? fields.find((n) => message.startsWith(`${n}.`));
  return { field: named ?? byStatus[err.status], message };
}

/** The error of one field, or nothing. */
export const errorAt = (error: FormError | undefined, field: string) =>
  error?.field === field ? error.message : undefined;
