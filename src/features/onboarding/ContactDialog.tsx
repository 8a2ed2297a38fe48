import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContactInformation, ContactInput } from '../../../machines/onboarding.ts';
import { Button, Dialog, TextField } from '../../ui/index.ts';
import * as styles from './onboarding.css.ts';

const FIELDS = ['legal_name', 'street_address', 'apt_suite', 'city', 'province', 'postal_code', 'vat_number'] as const;
const LABELS = {
  legal_name: 'legalName',
  street_address: 'street',
  apt_suite: 'apt',
  city: 'city',
  province: 'province',
  postal_code: 'postalCode',
  vat_number: 'vat',
} as const;
const OPTIONAL = new Set<string>(['apt_suite', 'vat_number']);

/** Name and address (spec §2): the profile type is shown, locked; the organization name only for Organization. */
export function ContactDialog(props: {
  profileType: 'Individual' | 'Organization';
  saved: ContactInformation | null;
  saving: boolean;
  onSave: (contact: ContactInput) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('onboarding');
  const [organizationName, setOrganizationName] = useState(props.saved?.organization_name ?? '');
  const [values, setValues] = useState<Record<(typeof FIELDS)[number], string>>(
    () =>
      Object.fromEntries(FIELDS.map((field) => [field, props.saved?.[field] ?? ''])) as Record<
        (typeof FIELDS)[number],
        string
      >,
  );
  const organization = props.profileType === 'Organization';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSave({
      ...values,
      apt_suite: values.apt_suite.trim() || null,
      vat_number: values.vat_number.trim() || null,
      ...(organization && { organization_name: organizationName }),
    });
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && props.onClose()}
      title={t('contact.title')}
      description={t('contact.description')}
      closeLabel={t('close')}
    >
      <form className={styles.dialogForm} onSubmit={submit}>
        <TextField label={t('contact.profileType')} value={t(`contact.${props.profileType}`)} readOnly />
        {organization ? (
          <TextField
            label={t('contact.organizationName')}
            value={organizationName}
            required
            onChange={(event) => setOrganizationName(event.target.value)}
          />
        ) : null}
        {FIELDS.map((field) => (
          <TextField
            key={field}
            label={t(`contact.${LABELS[field]}`)}
            value={values[field]}
            required={!OPTIONAL.has(field)}
            onChange={(event) => setValues((previous) => ({ ...previous, [field]: event.target.value }))}
          />
        ))}
        <div className={styles.buttons}>
          <Button type="button" tone="secondary" onClick={props.onClose}>
            {t('cancel')}
          </Button>
          <Button type="submit" disabled={props.saving}>
            {props.saving ? t('saving') : t('contact.save')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
