import { InvalidInput } from '../../shared/domain-errors.ts';
import { passesLuhn } from '../../shared/luhn.ts';
import type { CardInput } from '../billing/index.ts';

/** What a payment method keeps of a card: never its number or security code. */
export interface CardSummary {
  brand: string;
  last4: string;
  /** The number's digits, to hand on to the payment provider (never kept). */
  digits: string;
}

/** The card network, from the number's leading digits. */
export function cardBrand(digits: string): string {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(digits)) return 'discover';
  return 'unknown';
}

/**
 * Checks a card as the server decides (spec §5: the onboarding form itself checks nothing):
 * 13 to 19 digits once spaces are removed, a valid checksum, an expiry (MM/YY) not in the past.
 * Answers what may be kept of it.
 */
export function checkCard(input: { cardNumber: string; expiryDate: string }, now: Date): CardSummary {
  const digits = input.cardNumber.replace(/\s+/g, '');
  if (!/^\d{13,19}$/.test(digits)) throw new InvalidInput('The card number must have 13 to 19 digits.');
  if (!passesLuhn(digits)) throw new InvalidInput('The card number is not valid. Please check it.');
  const [month = 0, year = 0] = input.expiryDate.split('/').map(Number);
  // A card works until the end of its expiry month.
  const expiresAt = Date.UTC(2000 + year, month, 1);
  if (expiresAt <= now.getTime()) throw new InvalidInput('The card has expired.');
  return { brand: cardBrand(digits), last4: digits.slice(-4), digits };
}

/** A card the server checked (checkCard), as the payment provider takes it. */
export function providerCard(
  input: { cardNumber: string; expiryDate: string; securityCode: string; holderName: string },
  now: Date,
): CardInput {
  const { digits } = checkCard(input, now);
  const [month = 0, year = 0] = input.expiryDate.split('/').map(Number);
  return {
    number: digits,
    expMonth: month,
    expYear: 2000 + year,
    cvc: input.securityCode,
    holderName: input.holderName.trim(),
  };
}
