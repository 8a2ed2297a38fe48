// What a balance must hold for the chat (spec §9): below $0.10 no conversation starts and the
// agent makes no model call. Shared by the conversations module and the agent.

export const MINIMUM_BALANCE_MICROS = 100_000n;
export const INSUFFICIENT_CREDITS = 'Insufficient credits. Please add more credits to continue chatting.';
