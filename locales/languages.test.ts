import { describe, expect, it } from 'vitest';
import { pickLanguage } from './languages.ts';

describe('pickLanguage', () => {
  it('takes the first supported preference, ignoring the region', () => {
    expect(pickLanguage(['it-IT', 'de-AT', 'fr'])).toBe('de');
    expect(pickLanguage(['FR-ca'])).toBe('fr');
  });

  it('falls back to English', () => {
    expect(pickLanguage(['ja', 'ko'])).toBe('en');
    expect(pickLanguage([])).toBe('en');
  });
});
