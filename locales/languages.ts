// The languages and text namespaces of the application, for the browser's i18n and for the
// server, which preloads the texts a first render waits for.

export const SUPPORTED_LANGUAGES = ['en', 'de', 'fr'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = 'en';
export const NAMESPACES = [
  'common',
  'auth',
  'onboarding',
  'workspace',
  'chat',
  'tabs',
  'home',
  'legal',
  'conversations',
  'settings',
  'billing',
  'landing',
  'affiliate',
  'microagents',
  'deployments',
  'chatOnboarding',
] as const;
export type Namespace = (typeof NAMESPACES)[number];
/**
 * Texts the first render does not wait for: those of pages few visits open, which their routes
 * load (pageTexts), and the workspace's tabs', which come with each tab's code.
 */
export const PAGE_NAMESPACES = [
  'tabs',
  'home',
  'onboarding',
  'legal',
  'billing',
  'landing',
  'affiliate',
  'microagents',
  'settings',
  'deployments',
  'chatOnboarding',
] as const satisfies readonly Namespace[];
export const FIRST_LOAD_NAMESPACES = NAMESPACES.filter(
  (namespace) => !(PAGE_NAMESPACES as readonly string[]).includes(namespace),
);

export function isSupportedLanguage(language: string): language is Language {
  return (SUPPORTED_LANGUAGES as readonly string[]).includes(language);
}

/** The first of the browser's preferred languages that Atelier speaks ('de-AT' counts as 'de'), else English. */
export function pickLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const language = tag.toLowerCase().split('-')[0] ?? '';
    if (isSupportedLanguage(language)) return language;
  }
  return FALLBACK_LANGUAGE;
}
