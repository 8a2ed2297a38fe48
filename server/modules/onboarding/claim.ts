import type { Db } from '../../db/index.ts';
import { cardClaims } from '../../db/schema.ts';
import { HttpError, ValidationFailure } from '../../shared/http-error.ts';
import { balanceMicros, grantFreeCredit, microsToDollars } from '../credits/index.ts';
import type { components } from '../../../openapi/schema.d.ts';
import { passesLuhn } from './cards.ts';

type ClaimRequest = components['schemas']['ClaimRequest'];

export const CARD_ALREADY_CLAIMED = 'This card has already been used to claim free credit.';
export const ALREADY_RECEIVED = 'This account has already received its $100 of free credit.';

export interface ClaimDeps {
  /** A keyed fingerprint of the card number: claims are told apart without keeping numbers. */
  fingerprint: (digits: string) => string;
  now: () => Date;
}

/**
 * The claim-credit page's card verification (spec §1, §4, §5): a valid card number (13 to 19
 * digits once spaces are removed, with its checksum), a holder and an address earn the $100
 * trial, valid 90 days, with no charge. Each card claims once, each account gets the $100 once
 * (shared with the usage agreement's). Nothing of the card is kept but its fingerprint.
 */
export function createClaims(db: Db, deps: ClaimDeps) {
  return async function claim(userId: string, input: ClaimRequest) {
    if (input.user_id && input.user_id !== userId)
      throw new HttpError(400, 'The card verification is for the signed-in account only.');
    const digits = input.card_number.replace(/\s+/g, '');
    if (!/^\d{13,19}$/.test(digits) || !passesLuhn(digits))
      throw new ValidationFailure([
        { loc: ['body', 'card_number'], msg: 'Please enter a valid card number', type: 'value_error' },
      ]);
    await db.transaction(async (tx) => {
      const claimed = await tx
        .insert(cardClaims)
        .values({ fingerprint: deps.fingerprint(digits), userId, createdAt: deps.now() })
        .onConflictDoNothing()
        .returning({ userId: cardClaims.userId });
      if (claimed.length === 0) throw new HttpError(409, CARD_ALREADY_CLAIMED);
      const granted = await grantFreeCredit(tx, {
        userId,
        credit: 'agreementOrTrial',
        description: 'Free trial credit for verifying a card',
        at: deps.now(),
      });
      // Rolls the card's claim back: the card stays free for an account that has no $100 yet.
      if (!granted) throw new HttpError(409, ALREADY_RECEIVED);
    });
    return {
      success: true,
      message: 'You received $100 of free credit, valid for 90 days.',
      new_balance: microsToDollars(await balanceMicros(db, userId)),
    };
  };
}
