import i18next from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';
import {
  FALLBACK_LANGUAGE,
  FIRST_LOAD_NAMESPACES,
  SUPPORTED_LANGUAGES,
  pickLanguage,
  type PAGE_NAMESPACES,
} from '../../locales/languages.ts';

/** A route's loader: the page renders once its texts are here. */
export const pageTexts = (namespace: (typeof PAGE_NAMESPACES)[number]) => () => i18next.loadNamespaces(namespace);

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
