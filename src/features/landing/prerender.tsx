import { createInstance, type Resource } from 'i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { darkTheme, lightTheme } from '../../styles/theme.css.ts';
import { LandingMarkup } from './LandingMarkup.tsx';

// Built for Node by scripts/prerender-landing.ts, which writes one HTML file per language with it.

export const themes = { light: lightTheme, dark: darkTheme };

/** The landing page's body and title in `language`, from that language's texts. */
export async function renderLanding(language: string, resources: Resource, buildNumber: string) {
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: language,
    fallbackLng: 'en',
    resources,
    defaultNS: 'common',
    interpolation: { escapeValue: false },
  });
  const body = renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <LandingMarkup buildNumber={buildNumber} />
    </I18nextProvider>,
  );
  return { body, title: i18n.t('common:app.title') };
}
