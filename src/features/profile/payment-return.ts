/** Where the provider's hosted pages send the browser back: /profile?payment=… (see the server's returnUrl). */
export const PAYMENT_OUTCOMES = ['success', 'cancelled', 'card-saved'] as const;
export type PaymentOutcome = (typeof PAYMENT_OUTCOMES)[number];

/**
 * The profile page's search: the outcome of a hosted payment or card setup, when it is one of
 * ours, and the setup session a card setup came back with.
 */
export function profileSearch(search: Record<string, unknown>): { payment?: PaymentOutcome; setup_session?: string } {
  const outcome = PAYMENT_OUTCOMES.find((known) => known === search.payment);
  const session = outcome === 'card-saved' && typeof search.setup_session === 'string' ? search.setup_session : '';
  return outcome ? { payment: outcome, ...(session && { setup_session: session }) } : {};
}
