/** The spec's basic email pattern: something@something.something, no spaces. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type EmailError = 'emailRequired' | 'emailInvalid';

export function emailError(email: string): EmailError | undefined {
  if (email.trim() === '') return 'emailRequired';
  return EMAIL_PATTERN.test(email.trim()) ? undefined : 'emailInvalid';
}

export function isBlank(value: string): boolean {
  return value.trim() === '';
}

/** The errors object without entries for valid fields. */
export function presentErrors<TErrors extends Record<string, string | undefined>>(errors: TErrors): Partial<TErrors> {
  return Object.fromEntries(Object.entries(errors).filter(([, error]) => error !== undefined)) as Partial<TErrors>;
}

/** The errors object with the edited field's error removed. */
export function withoutError<TField extends string, TError>(
  errors: Partial<Record<TField, TError>>,
  field: TField,
): Partial<Record<TField, TError>> {
  const remaining = { ...errors };
  delete remaining[field];
  return remaining;
}
