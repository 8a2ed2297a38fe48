import { createRequire } from 'node:module';
import type * as IsoCountries from 'i18n-iso-countries';

const require = createRequire(import.meta.url);
const LANGUAGES = ['en', 'de', 'fr'] as const;
let loaded: typeof IsoCountries | null = null;
/** Country names in the app's languages, from the maintained ISO 3166 data of i18n-iso-countries, loaded on first use. */
function countryData(): typeof IsoCountries {
  if (loaded) return loaded;
  const countries = require('i18n-iso-countries') as typeof IsoCountries;
  for (const language of LANGUAGES)
    countries.registerLocale(require(`i18n-iso-countries/langs/${language}.json`) as IsoCountries.LocaleData);
  return (loaded = countries);
}

export interface Country {
  /** The ISO 3166-1 numeric code: stable, and what the onboarding calls name a country by. */
  id: number;
  name: string;
  /** ISO 3166-1 alpha-2. */
  code: string;
}

const languageOf = (language: string | null | undefined) =>
  LANGUAGES.find((known) => known === language?.slice(0, 2).toLowerCase()) ?? 'en';

/** Every country with its name in `language` (English when it is not one of the app's), sorted by name. */
export function listCountries(language: string | null | undefined): Country[] {
  const lang = languageOf(language);
  const countries = countryData();
  const names = countries.getNames(lang, { select: 'official' });
  const collator = new Intl.Collator(lang);
  return Object.entries(names)
    .flatMap(([code, name]) => {
      const numeric = Number(countries.alpha2ToNumeric(code));
      return numeric > 0 ? [{ id: numeric, name, code }] : [];
    })
    .sort((a, b) => collator.compare(a.name, b.name));
}

/** The country of an ISO 3166-1 numeric id or alpha-2 code, named in `language`; null when there is none. */
export function findCountry(idOrCode: number | string, language: string | null | undefined): Country | null {
  const countries = countryData();
  const code = typeof idOrCode === 'number' ? countries.numericToAlpha2(idOrCode) : idOrCode.toUpperCase();
  if (!code || !countries.isValid(code)) return null;
  const name = countries.getName(code, languageOf(language), { select: 'official' });
  const id = Number(countries.alpha2ToNumeric(code));
  return name && id > 0 ? { id, name, code } : null;
}

/**
 * The country a request most likely comes from, without asking any outside service: the region
 * of the first Accept-Language entry that names one (de-CH → Switzerland); null when none does.
 */
export function detectCountry(acceptLanguage: string | undefined, language: string | null | undefined): Country | null {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((entry) => {
      const [tag = '', ...params] = entry.trim().split(';');
      const q = Number(
        params
          .find((p) => p.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? 1,
      );
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0 };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    const region = tag.split('-').find((part, index) => index > 0 && /^[A-Za-z]{2}$/.test(part));
    const country = region ? findCountry(region, language) : null;
    if (country) return country;
  }
  return null;
}
