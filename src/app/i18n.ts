import i18next from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';

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
/** Texts of pages few visits open: their routes load them (pageTexts), the first render does not wait for them. */
export const PAGE_NAMESPACES = [
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

/** A route's loader: the page renders once its texts are here. */
export const pageTexts = (namespace: (typeof PAGE_NAMESPACES)[number]) => () => i18next.loadNamespaces(namespace);

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

/** Keeps <html lang>, the page title and the description (the same words, as the spec says) in the current language. */
function describeDocument() {
  const title = i18next.t('common:app.title');
  document.documentElement.lang = i18next.resolvedLanguage ?? FALLBACK_LANGUAGE;
  document.title = title;
  document.querySelector('meta[name="description"]')?.setAttribute('content', title);
}

/** Loads only the chosen language's namespaces (and English as the fallback), each file on demand. */
export async function initI18n(preferred: readonly string[] = navigator.languages): Promise<void> {
  await i18next
    .use(
      resourcesToBackend(
        (language: string, namespace: string) => import(`../../locales/${language}/${namespace}.json`),
      ),
    )
    .use(initReactI18next)
    .init({
      lng: pickLanguage(preferred),
      fallbackLng: FALLBACK_LANGUAGE,
      supportedLngs: SUPPORTED_LANGUAGES,
      ns: FIRST_LOAD_NAMESPACES,
      defaultNS: 'common',
      interpolation: { escapeValue: false },
    });
  describeDocument();
  i18next.on('languageChanged', describeDocument);
}
