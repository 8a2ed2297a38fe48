import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { onboarding } from '../../db/schema.ts';
import { Conflict, InvalidInput, NotAuthenticated, NotFound } from '../../shared/domain-errors.ts';
import { activateUser, findUser } from '../auth/index.ts';
import { grantFreeCredit } from '../credits/index.ts';
import { userLanguage } from '../settings/index.ts';
import type { CardInput, CardSetup } from '../billing/index.ts';
import { providerCard } from './cards.ts';
import { createClaims } from './claim.ts';
import { detectCountry, findCountry, listCountries } from './countries.ts';
import type { components } from '../../../openapi/schema.d.ts';

type ContactInformation = components['schemas']['ContactInformation'];
type ContactInput = components['schemas']['ContactInformationInput'];
type PaymentInformation = components['schemas']['PaymentInformation'];
type PaymentInput = components['schemas']['PaymentInformationInput'];
type CardSetupInput = components['schemas']['CardSetupResultInput'];
type Step = components['schemas']['OnboardingStep'];

/** The one platform provider whose onboarding this server runs (the path's `{provider}`). */
export const ONBOARDING_PROVIDER = 'atelier';

const CONTACT_FIRST = 'Save your contact information first.';
const VERIFY_ONLY_SETUP =
  'This card was set up only to be verified for the free trial. Add the card to pay with from this page.';
const optional = (value: string | null | undefined) => value?.trim() || null;

export interface OnboardingDeps {
  /** Tells every node the account changed (activation). */
  userChanged: (userId: string) => Promise<void>;
  /** Hands the card to the payment provider; answers what may be shown of it. */
  saveCard: (userId: string, card: CardInput) => Promise<{ brand: string; last4: string }>;
  /** A keyed fingerprint of a card number (the claim page's once-per-card rule). */
  fingerprint: (digits: string) => string;
  /** Has the payment provider check a card with its bank, with no charge (the claim page). */
  verifyCard: (card: CardInput) => Promise<void>;
  /** The card this user's completed setup session took on the provider's own page (Stripe). */
  cardSetup: (userId: string, sessionId: string) => Promise<CardSetup>;
  /** The provider's page that takes the card, coming back to onboarding (and its chat): its address. */
  cardSetupPage: (userId: string, chat: string | undefined) => Promise<{ redirect_url: string }>;
  now?: () => Date;
}

/** Registration onboarding (spec §2, §4): country, contact information, payment method, then Start Free. */
export function createOnboardingService(db: Db, deps: OnboardingDeps) {
  const now = deps.now ?? (() => new Date());

  async function account(userId: string) {
    const user = await findUser(db, userId);
    if (!user) throw new NotAuthenticated();
    return { isPersonal: user.isPersonal, isActive: user.isActive, language: await userLanguage(db, userId) };
  }

  async function saved(userId: string) {
    const [row] = await db.select().from(onboarding).where(eq(onboarding.userId, userId));
    return row ?? null;
  }

  async function upsert(userId: string, values: Partial<typeof onboarding.$inferInsert>) {
    await db
      .insert(onboarding)
      .values({ userId, ...values, updatedAt: now() })
      .onConflictDoUpdate({ target: onboarding.userId, set: { ...values, updatedAt: now() } });
  }

  const contactOf = (row: Awaited<ReturnType<typeof saved>>): ContactInformation | null => {
    const contact = row?.contactInformation as Omit<ContactInformation, 'payment_information'> | null | undefined;
    if (!contact) return null;
    return { ...contact, payment_information: (row?.paymentInformation as PaymentInformation | null) ?? null };
  };

  /** The saved contact a card is saved under: it must be saved first, and be the one named. */
  async function contactFor(userId: string, contactId: string) {
    const row = await saved(userId);
    const contact = contactOf(row);
    if (!contact || contact.id !== contactId) throw new NotFound(CONTACT_FIRST);
    return { row, contact };
  }

  /** Keeps what may be shown of the provider's card, and grants the payment-details credit once. */
  async function keepPayment(
    userId: string,
    contact: ContactInformation,
    card: Omit<PaymentInformation, 'id' | 'contact_information_id'>,
  ) {
    const payment: PaymentInformation = {
      id: contact.payment_information?.id ?? randomUUID(),
      contact_information_id: contact.id,
      ...card,
    };
    await upsert(userId, { paymentInformation: payment });
    await grantFreeCredit(db, {
      userId,
      credit: 'paymentDetails',
      description: 'Free credit for adding payment details',
      at: now(),
    });
    return { payment_information: payment };
  }

  const claim = createClaims(db, {
    fingerprint: deps.fingerprint,
    verifyCard: deps.verifyCard,
    cardSetup: deps.cardSetup,
    now,
  });

  return {
    claim,

    countries: async (userId: string) => ({ countries: listCountries((await account(userId)).language) }),

    async detectCountry(userId: string, acceptLanguage: string | undefined) {
      const country = detectCountry(acceptLanguage, (await account(userId)).language);
      return { detected: country !== null, country };
    },

    async formData(userId: string) {
      const { language, isActive } = await account(userId);
      const row = await saved(userId);
      const country = row?.countryCode ? findCountry(row.countryCode, language) : null;
      const contact = contactOf(row);
      const status = isActive || row?.completedAt ? 'completed' : row ? 'in_progress' : 'not_started';
      return {
        status,
        form_data:
          country || contact
            ? { country: country && { country_id: country.id, name: country.name }, contact_information: contact }
            : null,
      } as const;
    },

    async saveCountry(userId: string, countryId: number) {
      const country = findCountry(countryId, null);
      if (!country) throw new InvalidInput(`There is no country with the id ${countryId}.`);
      await upsert(userId, { countryCode: country.code });
      return { success: true };
    },

    async saveContact(userId: string, input: ContactInput) {
      const { isPersonal } = await account(userId);
      // Spec §2: the profile type comes from the sign-up and cannot be changed.
      const profileType = isPersonal ? 'Individual' : 'Organization';
      if (input.profile_type && input.profile_type !== profileType)
        throw new Conflict(`The profile type is ${profileType}: it is set when signing up and cannot be changed.`);
      const organizationName = optional(input.organization_name);
      if (profileType === 'Organization' && !organizationName) throw new InvalidInput('Organization name is required.');
      const previous = contactOf(await saved(userId));
      const contact = {
        id: previous?.id ?? randomUUID(),
        profile_type: profileType,
        organization_name: profileType === 'Organization' ? organizationName : null,
        legal_name: input.legal_name.trim(),
        street_address: input.street_address.trim(),
        apt_suite: optional(input.apt_suite),
        city: input.city.trim(),
        province: input.province.trim(),
        postal_code: input.postal_code.trim(),
        tax_id: optional(input.tax_id),
        vat_number: optional(input.vat_number),
      } as const;
      await upsert(userId, { contactInformation: contact });
      return { contact_information: { ...contact, payment_information: previous?.payment_information ?? null } };
    },

    async savePayment(userId: string, input: PaymentInput) {
      const { row, contact } = await contactFor(userId, input.contact_information_id);
      const checked = providerCard(
        {
          cardNumber: input.card_number,
          expiryDate: input.expiry_date,
          securityCode: input.security_code,
          holderName: input.cardholder_name,
        },
        now(),
      );
      // The payment provider keeps the card; this keeps its reference and what may be shown.
      const card = await deps.saveCard(userId, checked);
      const same = input.same_billing_address;
      const country = row?.countryCode ? findCountry(row.countryCode, 'en') : null;
      return keepPayment(userId, contact, {
        card_last4: card.last4,
        card_brand: card.brand,
        expiry_date: input.expiry_date,
        cardholder_name: input.cardholder_name.trim(),
        same_billing_address: same,
        billing_country: same ? (country?.name ?? null) : optional(input.billing_country),
        billing_street_address: same ? contact.street_address : optional(input.billing_street_address),
        billing_apt_suite: same ? contact.apt_suite : optional(input.billing_apt_suite),
        billing_city: same ? contact.city : optional(input.billing_city),
        billing_province: same ? contact.province : optional(input.billing_province),
        billing_postal_code: same ? contact.postal_code : optional(input.billing_postal_code),
      });
    },

    cardSetupPage: (userId: string, chat: string | undefined) => deps.cardSetupPage(userId, chat),

    /** The card Stripe's page took (no number reached Atelier), billed at the contact address. */
    async saveCardSetup(userId: string, input: CardSetupInput) {
      const { row, contact } = await contactFor(userId, input.contact_information_id);
      const card = await deps.cardSetup(userId, input.setup_session_id);
      if (card.purpose !== 'pay') throw new InvalidInput(VERIFY_ONLY_SETUP);
      const country = row?.countryCode ? findCountry(row.countryCode, 'en') : null;
      const twoDigits = (value: number) => String(value % 100).padStart(2, '0');
      return keepPayment(userId, contact, {
        card_last4: card.last4,
        card_brand: card.brand,
        expiry_date: `${twoDigits(card.expMonth)}/${twoDigits(card.expYear)}`,
        cardholder_name: card.holderName?.trim() || contact.legal_name,
        same_billing_address: true,
        billing_country: country?.name ?? null,
        billing_street_address: contact.street_address,
        billing_apt_suite: contact.apt_suite,
        billing_city: contact.city,
        billing_province: contact.province,
        billing_postal_code: contact.postal_code,
      });
    },

    /** Activates the account once the required steps are saved; otherwise lists what is missing and changes nothing. */
    async startFree(userId: string) {
      const row = await saved(userId);
      const missing: Step[] = [
        ...(row?.countryCode ? [] : ['country' as const]),
        ...(row?.contactInformation ? [] : ['contact_information' as const]),
      ];
      if (missing.length > 0)
        return { success: false, message: 'Please complete the required steps first.', missing_steps: missing };
      await db.transaction(async (tx) => {
        await activateUser(tx, userId, now());
        await tx.update(onboarding).set({ completedAt: now() }).where(eq(onboarding.userId, userId));
      });
      await deps.userChanged(userId);
      return { success: true, message: 'Your account is active.', missing_steps: [] };
    },
  };
}

export type OnboardingService = ReturnType<typeof createOnboardingService>;
