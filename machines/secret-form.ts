import { RESERVED_SECRET_NAME, SECRET_NAME_MAX_LENGTH, SECRET_NAME_PATTERN } from '../openapi/secret-names.ts';
import type { components } from '../openapi/schema.d.ts';

type SecretCreateRequest = components['schemas']['SecretCreateRequest'];
type SecretUpdateRequest = components['schemas']['SecretUpdateRequest'];

export interface SecretDraft {
  name: string;
  value: string;
  description: string;
}

export type SecretFieldError =
  'nameRequired' | 'nameTooLong' | 'namePattern' | 'nameReserved' | 'valueRequired' | 'descriptionTooLong';

const DESCRIPTION_MAX_LENGTH = 500;

/**
 * The form's errors by field (keys of settings:secrets.errors). A new secret needs a value; an
 * edited one keeps its value when the field is left empty.
 */
export function secretDraftErrors(
  draft: SecretDraft,
  editing: boolean,
): Partial<Record<keyof SecretDraft, SecretFieldError>> {
  const name = draft.name.trim();
  const nameError: SecretFieldError | null =
    name === ''
      ? 'nameRequired'
      : name.length > SECRET_NAME_MAX_LENGTH
        ? 'nameTooLong'
        : !SECRET_NAME_PATTERN.test(name)
          ? 'namePattern'
          : RESERVED_SECRET_NAME.test(name)
            ? 'nameReserved'
            : null;
  return {
    ...(nameError && { name: nameError }),
    ...(!editing && draft.value === '' && { value: 'valueRequired' as const }),
    ...(draft.description.trim().length > DESCRIPTION_MAX_LENGTH && { description: 'descriptionTooLong' as const }),
  };
}

/** What creating sends: the value as typed (a secret may hold spaces), the description trimmed or null. */
export function createSecretBody(draft: SecretDraft): SecretCreateRequest {
  return { name: draft.name.trim(), value: draft.value, description: draft.description.trim() || null };
}

/** What editing sends: only what changed, and the value only when a new one was typed. */
export function updateSecretBody(before: { name: string; description: string | null }, draft: SecretDraft) {
  const name = draft.name.trim();
  const description = draft.description.trim() || null;
  const body: SecretUpdateRequest = {
    ...(name !== before.name && { name }),
    ...(draft.value !== '' && { value: draft.value }),
    ...(description !== before.description && { description }),
  };
  return Object.keys(body).length === 0 ? null : body;
}
