import { eq, or } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { cardClaims } from '../../db/schema.ts';
import { Conflict, InvalidInput, NotAuthenticated, ValidationFailure } from '../../shared/domain-errors.ts';
import { findUser } from '../auth/index.ts';
import { balanceMicros, grantFreeCredit, hasFreeCredit, microsToDollars } from '../credits/index.ts';
import type { CardInput, CardSetup } from '../billing/index.ts';
import { RateLimiter, throttle } from '../rate-limits/index.ts';
import type { components } from '../../../openapi/schema.d.ts';
import { passesLuhn } from '../../shared/luhn.ts';
import { providerCard } from './cards.ts';
import { claimantOf } from './claimant.ts';

type ClaimRequest = components['schemas']['ClaimRequest'];
type CardSetupClaimRequest = components['schemas']['CardSetupClaimRequest'];

export const CARD_ALREADY_CLAIMED = 'This card has already been used to claim free credit.';
export const PERSON_ALREADY_CLAIMED =
  'Free credit has already been claimed with this email address (or another form of it).';
export const ALREADY_RECEIVED = 'This account has already received its $100 of free credit.';
const CARD_NOT_IDENTIFIED =
  'Stripe could not tell which card this is, so it cannot claim free credit. Please use another card.';

/** Bank checks of cards per account an hour: enough for typing mistakes, too few to test stolen cards. */
export const CARD_VERIFICATIONS_PER_HOUR = 5;

export interface ClaimDeps {
  /** A keyed fingerprint of the card number: claims are told apart without keeping numbers. */
  fingerprint: (digits: string) => string;
  /** The payment provider checks the card with its bank, with no charge; refusals are PaymentRequired. */
  verifyCard: (card: CardInput) => Promise<void>;
  /** The card this user's completed setup session took, and its bank accepted, on the provider's own page. */
  cardSetup: (userId: string, sessionId: string) => Promise<CardSetup>;
  now: () => Date;
}

/**
 * The claim-credit page's card verification (spec §1, §4, §5): a card the payment provider
 * accepts, a holder and an address earn the $100 trial, valid 90 days, with no charge. Each card
 * claims once, each person once (claimant.ts), each account gets the $100 once (shared with the
 * usage agreement's). Nothing of the card is kept but its fingerprint.
 */
export function createClaims(db: Db, deps: ClaimDeps) {
  const verifications = new RateLimiter(db, {
    name: 'card-verification',
    limit: CARD_VERIFICATIONS_PER_HOUR,
    windowMs: 60 * 60 * 1000,
  });

  /** Refuses a claim whose card or person has claimed already. */
  async function refuseRepeated(fingerprint: string, person: string) {
    const [earlier] = await db
      .select({ fingerprint: cardClaims.fingerprint })
      .from(cardClaims)
      .where(or(eq(cardClaims.fingerprint, fingerprint), eq(cardClaims.person, person)))
      .limit(1);
    if (earlier)
      throw new Conflict(earlier.fingerprint === fingerprint ? CARD_ALREADY_CLAIMED : PERSON_ALREADY_CLAIMED);
  }

  /** The account's person (claimantOf), once it may still claim: told before any bank is asked. */
  async function claimant(userId: string, claimedFor: string | null | undefined) {
    if (claimedFor && claimedFor !== userId)
      throw new InvalidInput('The card verification is for the signed-in account only.');
    const account = await findUser(db, userId);
    if (!account) throw new NotAuthenticated();
    if (await hasFreeCredit(db, userId, 'agreementOrTrial')) throw new Conflict(ALREADY_RECEIVED);
    return claimantOf(account.email);
  }

  /** The $100 for a card the provider accepted: once per card, per person, per account. */
  async function grant(userId: string, fingerprint: string, person: string) {
    const outcome = await db.transaction(async (tx) => {
      const claimed = await tx
        .insert(cardClaims)
        .values({ fingerprint, userId, person, createdAt: deps.now() })
        .onConflictDoNothing()
        .returning({ userId: cardClaims.userId });
      if (claimed.length === 0) return 'raced' as const;
      const granted = await grantFreeCredit(tx, {
        userId,
        credit: 'agreementOrTrial',
        description: 'Free trial credit for verifying a card',
        at: deps.now(),
      });
      // Rolls the card's claim back: the card stays free for an account that has no $100 yet.
      if (!granted) throw new Conflict(ALREADY_RECEIVED);
      return 'granted' as const;
    });
    if (outcome === 'raced') {
      // A parallel claim of the same card or person won: it says which.
      await refuseRepeated(fingerprint, person);
      throw new Conflict(CARD_ALREADY_CLAIMED);
    }
    return {
      success: true,
      message: 'You received $100 of free credit, valid for 90 days.',
      new_balance: microsToDollars(await balanceMicros(db, userId)),
    };
  }

  return {
    /** A card typed into the claim page (the test payment provider), checked with its bank here. */
    async withCard(userId: string, input: ClaimRequest) {
      const digits = input.card_number.replace(/\s+/g, '');
      if (!/^\d{13,19}$/.test(digits) || !passesLuhn(digits))
        throw new ValidationFailure([
          { loc: ['body', 'card_number'], msg: 'Please enter a valid card number', type: 'value_error' },
        ]);
      const card = providerCard(
        {
          cardNumber: digits,
          expiryDate: input.expiry_date,
          securityCode: input.security_code,
          holderName: input.card_holder_name,
        },
        deps.now(),
      );
      const person = await claimant(userId, input.user_id);
      const fingerprint = deps.fingerprint(digits);
      await refuseRepeated(fingerprint, person);
      await throttle([verifications], [userId], 'card verification');
      await deps.verifyCard(card);
      return grant(userId, fingerprint, person);
    },

    /** A card Stripe's own page took and had its bank check (no number reached Atelier). */
    async withCardSetup(userId: string, input: CardSetupClaimRequest) {
      const person = await claimant(userId, input.user_id);
      const card = await deps.cardSetup(userId, input.setup_session_id);
      if (!card.fingerprint) throw new InvalidInput(CARD_NOT_IDENTIFIED);
      // Keyed again, and apart from the numbers the test provider's claims are told by.
      const fingerprint = deps.fingerprint(`stripe:${card.fingerprint}`);
      await refuseRepeated(fingerprint, person);
      return grant(userId, fingerprint, person);
    },
  };
}
