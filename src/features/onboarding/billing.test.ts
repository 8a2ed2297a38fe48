import { describe, expect, it } from 'vitest';
import type { ContactInformation } from '../../../machines/onboarding.ts';
import { billingAfterToggle, EMPTY_BILLING } from './billing.ts';

const contact: ContactInformation = {
  id: 'c',
  profile_type: 'Organization',
  organization_name: 'Acme',
  legal_name: 'Ada',
  street_address: 'Hauptstraße 1',
  apt_suite: null,
  city: 'Berlin',
  province: 'Berlin',
  postal_code: '10115',
  tax_id: null,
  vat_number: null,
  payment_information: null,
};

describe('the card dialog’s billing fields (spec §4)', () => {
  it('clears them when the addresses are the same', () => {
    expect(billingAfterToggle(true, contact, 'Germany')).toEqual(EMPTY_BILLING);
  });

  it('pre-fills them from the contact address and the chosen country when they are not', () => {
    expect(billingAfterToggle(false, contact, 'Germany')).toEqual({
      billing_country: 'Germany',
      billing_street_address: 'Hauptstraße 1',
      billing_apt_suite: '',
      billing_city: 'Berlin',
      billing_province: 'Berlin',
      billing_postal_code: '10115',
    });
    expect(billingAfterToggle(false, null, 'Germany')).toEqual(EMPTY_BILLING);
  });
});
