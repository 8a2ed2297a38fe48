import { getCountries, getCountryCallingCode, type CountryCode } from 'libphonenumber-js/min';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as fieldStyles from '../../ui/field.css.ts';
import * as styles from './affiliate.css.ts';

/** Spec §5: the WhatsApp phone input starts with the United States. */
const DEFAULT_COUNTRY: CountryCode = 'US';

/** A number's country code replaced by `country`'s, the rest kept. */
export function withCountryCode(number: string, country: CountryCode): string {
  const rest = number.replace(/^\s*\+?\d{0,3}\s*/, (prefix) => (prefix.trim().startsWith('+') ? '' : prefix));
  return `+${getCountryCallingCode(country)} ${rest.trimStart()}`;
}

/**
 * A phone number with its country code: a country list (names in the page's language) that puts
 * the country's calling code in front of the number, and the number itself (`name` in the form).
 */
export function PhoneField(props: { name: string; label: string; error?: string | undefined; disabled?: boolean }) {
  const { t, i18n } = useTranslation('affiliate');
  const [country, setCountry] = useState<CountryCode>(DEFAULT_COUNTRY);
  const [number, setNumber] = useState(() => withCountryCode('', DEFAULT_COUNTRY));
  const countries = useMemo(() => {
    const names = new Intl.DisplayNames([i18n.language], { type: 'region' });
    return getCountries()
      .map((code) => ({ code, name: `${names.of(code) ?? code} (+${getCountryCallingCode(code)})` }))
      .sort((a, b) => a.name.localeCompare(b.name, i18n.language));
  }, [i18n.language]);
  const countryId = useId();
  const numberId = useId();
  const errorId = useId();
  return (
    <fieldset className={styles.fieldset}>
      <legend className={styles.label}>{props.label}</legend>
      <div className={styles.formRow}>
        <label htmlFor={countryId} className={fieldStyles.field}>
          <span className={styles.muted}>{t('form.country')}</span>
          <select
            id={countryId}
            className={styles.select}
            value={country}
            disabled={props.disabled}
            onChange={(event) => {
              const chosen = event.target.value as CountryCode;
              setCountry(chosen);
              setNumber((current) => withCountryCode(current, chosen));
            }}
          >
            {countries.map(({ code, name }) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <input
          id={numberId}
          name={props.name}
          type="tel"
          required
          autoComplete="tel"
          aria-label={props.label}
          className={fieldStyles.input}
          placeholder={t('form.phonePlaceholder')}
          value={number}
          disabled={props.disabled}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={props.error ? errorId : undefined}
          onChange={(event) => setNumber(event.target.value)}
        />
      </div>
      {props.error ? (
        <p id={errorId} className={fieldStyles.error}>
          {props.error}
        </p>
      ) : null}
    </fieldset>
  );
}
