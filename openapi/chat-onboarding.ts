// The chat-only onboarding's trigger phrases (spec §4): the onboarding agent writes them, and the
// browser shows the inline form or the upgrade choice when the latest agent message has them.

export const SIGNUP_PROMPT = 'Great! Please fill out the signup form below to create your account.';
export const LOGIN_PROMPT = 'Please log in with your existing credentials below.';
export const UPLOAD_PROMPT = 'Please upload your project files below.';
/** The upgrade question ends the message; its choice is written in square brackets. */
export const JUMP_IN_QUESTION = 'Shall we jump in?';
export const LETS_GO = "Let's go!";

/** Choices are written in square brackets inside agent messages: `[Let's go!]`. */
export const choicesOf = (message: string): string[] =>
  [...message.matchAll(/\[([^\][\n]{1,80})\]/g)].map((match) => match[1]!.trim()).filter(Boolean);

/** A message without its bracketed choices (the browser shows them as buttons). */
export const withoutChoices = (message: string): string => message.replace(/\s*\[[^\][\n]{1,80}\]/g, '').trim();

/** The upgrade message: without its bracketed choices it ends with the question, and Let's go! is a choice. */
export const asksToJumpIn = (message: string): boolean =>
  withoutChoices(message).endsWith(JUMP_IN_QUESTION) && choicesOf(message).includes(LETS_GO);
