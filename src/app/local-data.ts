// What the browser keeps for the person using Atelier, besides the token (src/api/token-store.ts).

/** Where the referral code from an affiliate link is kept until registration. */
export const AFFILIATE_CODE_KEY = 'affiliate_code';
/** The user's stored preferences. */
export const PREFERENCES_KEY = 'atelier.preferences';
/** Workspace layouts the user saved by name. */
export const SAVED_LAYOUTS_KEY = 'atelier.layouts';

/** The signed-in affiliate's token (local storage with remember me, else session storage) and id (public-site spec §3). */
export const AFFILIATOR_TOKEN_KEY = 'affiliator_token';
export const AFFILIATOR_ID_KEY = 'affiliator_id';

export function storedAffiliateCode(storage: Storage = localStorage): string | null {
  const code = storage.getItem(AFFILIATE_CODE_KEY)?.trim();
  return code ? code : null;
}

/** Whether the sidebar is collapsed (on wide screens), kept across visits. */
export const SIDEBAR_COLLAPSED_KEY = 'atelier.sidebarCollapsed';

export function readSidebarCollapsed(storage: Storage = localStorage): boolean {
  return storage.getItem(SIDEBAR_COLLAPSED_KEY) === 'true';
}

export function keepSidebarCollapsed(collapsed: boolean, storage: Storage = localStorage): void {
  storage.setItem(SIDEBAR_COLLAPSED_KEY, String(collapsed));
}

/** Free-credit banners dismissed in this browser session (spec §4: dismissals last for the session). */
export const DISMISSED_BANNERS_KEY = 'atelier.dismissedBanners';

export function readDismissedBanners(storage: Storage = sessionStorage): string[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(DISMISSED_BANNERS_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((name): name is string => typeof name === 'string') : [];
  } catch {
    return [];
  }
}

export function keepDismissedBanners(names: readonly string[], storage: Storage = sessionStorage): void {
  storage.setItem(DISMISSED_BANNERS_KEY, JSON.stringify(names));
}

/** Messages sent to a conversation that the server has not echoed yet, by conversation. */
export const UNSENT_MESSAGES_PREFIX = 'atelier.unsent.';

/** What is typed in a message box and not sent yet, by box (`chat.<conversation id>`, `devops.<conversation id>`). */
export const DRAFT_PREFIX = 'atelier.draft.';

export function readDraft(box: string, storage: Storage = localStorage): string {
  return storage.getItem(`${DRAFT_PREFIX}${box}`) ?? '';
}

/** Keeps a box's draft; an empty one is forgotten. */
export function keepDraft(box: string, text: string, storage: Storage = localStorage): void {
  if (text === '') storage.removeItem(`${DRAFT_PREFIX}${box}`);
  else storage.setItem(`${DRAFT_PREFIX}${box}`, text);
}

/** Forgets the stored preferences, saved layouts, the home draft, the message boxes' drafts and unsent messages (on logout). */
export function forgetPreferencesAndLayouts(storage: Storage = localStorage): void {
  storage.removeItem(PREFERENCES_KEY);
  storage.removeItem(SAVED_LAYOUTS_KEY);
  storage.removeItem(HOME_DRAFT_KEY);
  for (const key of Object.keys(storage))
    if (key.startsWith(UNSENT_MESSAGES_PREFIX) || key.startsWith(DRAFT_PREFIX)) storage.removeItem(key);
}

/**
 * The home page's prompt, and whether Send was pressed before signing in: kept in this browser
 * (the verification link may open another tab) until it is sent, so it survives reloads,
 * signing in, signing up, onboarding and verifying.
 */
export const HOME_DRAFT_KEY = 'atelier.homeDraft';

export interface HomeDraft {
  text: string;
  send: boolean;
}

export function readHomeDraft(storage: Storage = localStorage): HomeDraft | null {
  try {
    const parsed = JSON.parse(storage.getItem(HOME_DRAFT_KEY) ?? 'null') as Partial<HomeDraft> | null;
    return typeof parsed?.text === 'string' ? { text: parsed.text, send: parsed.send === true } : null;
  } catch {
    return null;
  }
}

export function keepHomeDraft(draft: HomeDraft | null, storage: Storage = localStorage): void {
  if (draft === null || draft.text.trim() === '') storage.removeItem(HOME_DRAFT_KEY);
  else storage.setItem(HOME_DRAFT_KEY, JSON.stringify(draft));
}

/** The `state` of a sign-in through a git host and the page it started on, kept in this tab until the host sends the user back. */
export const OAUTH_STATE_KEY = 'atelier.oauthState';

export function keepOAuthState(identity: string, returnTo: string, storage: Storage = sessionStorage): string {
  const state = crypto.randomUUID();
  storage.setItem(OAUTH_STATE_KEY, JSON.stringify({ identity, state, returnTo }));
  return state;
}

/**
 * The page to go back to when the return is the one this tab started; null for a forged or
 * replayed return. Only a path of this site is kept; the landing page leads on to the dashboard.
 */
export function keptOAuthReturn(identity: string, state: string | undefined, storage: Storage = sessionStorage) {
  try {
    const kept = JSON.parse(storage.getItem(OAUTH_STATE_KEY) ?? 'null') as Record<string, unknown> | null;
    if (state === undefined || kept?.identity !== identity || kept.state !== state) return null;
    const path = typeof kept.returnTo === 'string' ? kept.returnTo : '';
    return /^\/(?![/\\])/.test(path) && path !== '/' ? path : '/dashboard';
  } catch {
    return null;
  }
}

/** A state is good for one return. */
export function forgetOAuthState(storage: Storage = sessionStorage) {
  storage.removeItem(OAUTH_STATE_KEY);
}
