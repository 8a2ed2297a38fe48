import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContactInformation, PaymentInput } from '../../../machines/onboarding.ts';
import { Button, Dialog, TextField } from '../../ui/index.ts';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { billingAfterToggle, EMPTY_BILLING, type BillingFields } from './billing.ts';
import * as styles from './onboarding.css.ts';

const BILLING_LABELS: Record<keyof BillingFields, string> = {
  billing_country: 'billingCountry',
  billing_street_address: 'billingStreet',
  billing_apt_suite: 'billingApt',
  billing_city: 'billingCity',
  billing_province: 'billingProvince',
  billing_postal_code: 'billingPostalCode',
};

/** Add credit or debit card (spec §2): every field is the server's to check (spec §5 shows no client check). */
export function CardDialog(props: {
  contact: ContactInformation | null;
  countryName: string | null;
  saving: boolean;
  /** Why the last save failed, shown in the dialog (the profile's; onboarding shows its own). */
  error?: string | null;
  onSave: (payment: PaymentInput) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('onboarding');
  const [card, setCard] = useState({ card_number: '', expiry_date: '', security_code: '', cardholder_name: '' });
  const [same, setSame] = useState(true);
  const [billing, setBilling] = useState<BillingFields>(EMPTY_BILLING);
  const toggleSame = (checked: boolean) => {
    setSame(checked);
    setBilling(billingAfterToggle(checked, props.contact, props.countryName));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSave({
      ...card,
      same_billing_address: same,
      ...(same ? {} : Object.fromEntries(Object.entries(billing).map(([key, value]) => [key, value.trim() || null]))),
    });
  };
  const cardField = (field: keyof typeof card, label: string, extra: Record<string, string> = {}) => (
    <TextField
      label={t(`card.${label}` as 'card.number')}
      value={card[field]}
      onChange={(event) => setCard((previous) => ({ ...previous, [field]: event.target.value }))}
      {...extra}
    />
  );
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && props.onClose()}
      title={t('card.title')}
      description={t('card.description')}
      closeLabel={t('close')}
    >
      <form className={styles.dialogForm} onSubmit={submit}>
        {cardField('card_number', 'number', { inputMode: 'numeric', autoComplete: 'cc-number' })}
        {cardField('expiry_date', 'expiry', { placeholder: 'MM/YY', autoComplete: 'cc-exp' })}
        {cardField('security_code', 'securityCode', { inputMode: 'numeric', autoComplete: 'cc-csc' })}
        {cardField('cardholder_name', 'holder', { autoComplete: 'cc-name' })}
        <Checkbox label={t('card.sameBilling')} checked={same} onCheckedChange={toggleSame} />
        {same
          ? null
          : (Object.keys(BILLING_LABELS) as (keyof BillingFields)[]).map((field) => (
              <TextField
                key={field}
                label={t(`card.${BILLING_LABELS[field]}` as 'card.billingCity')}
                value={billing[field]}
                onChange={(event) => setBilling((previous) => ({ ...previous, [field]: event.target.value }))}
              />
            ))}
        {props.error ? (
          <p className={styles.error} role="alert">
            {props.error}
          </p>
        ) : null}
        <div className={styles.buttons}>
          <Button type="button" tone="secondary" onClick={props.onClose}>
            {t('cancel')}
          </Button>
          <Button type="submit" disabled={props.saving}>
            {props.saving ? t('saving') : t('card.save')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
