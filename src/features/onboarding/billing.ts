import type { ContactInformation } from '../../../machines/onboarding.ts';

export interface BillingFields {
  billing_country: string;
  billing_street_address: string;
  billing_apt_suite: string;
  billing_city: string;
  billing_province: string;
  billing_postal_code: string;
}

export const EMPTY_BILLING: BillingFields = {
  billing_country: '',
  billing_street_address: '',
  billing_apt_suite: '',
  billing_city: '',
  billing_province: '',
  billing_postal_code: '',
};

/**
 * The card dialog's billing fields after 'Billing address and legal address are the same' is
 * ticked (cleared) or unticked (pre-filled from the contact address and the chosen country), spec §4.
 */
export function billingAfterToggle(
  same: boolean,
  contact: ContactInformation | null,
  countryName: string | null,
): BillingFields {
  if (same || !contact) return EMPTY_BILLING;
  return {
    billing_country: countryName ?? '',
    billing_street_address: contact.street_address,
    billing_apt_suite: contact.apt_suite ?? '',
    billing_city: contact.city,
    billing_province: contact.province,
    billing_postal_code: contact.postal_code,
  };
}
