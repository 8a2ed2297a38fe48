import { describe, expect, it } from 'vitest';
import { withCountryCode } from './PhoneField.tsx';

describe('the WhatsApp number’s country code', () => {
  it('is put in front of an empty number', () => {
    expect(withCountryCode('', 'US')).toBe('+1 ');
  });

  it('replaces the code of a number typed with another country, keeping the rest', () => {
    expect(withCountryCode('+1 2025550123', 'DE')).toBe('+49 2025550123');
    expect(withCountryCode('+49 30 1234567', 'FR')).toBe('+33 30 1234567');
  });

  it('is added to a number typed without one', () => {
    expect(withCountryCode('2025550123', 'US')).toBe('+1 2025550123');
  });
});
