import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { preferredLanguages } from '../shared/web-text.ts';
import { landingPages } from './landing-page.ts';

function builtSite(languages: string[]) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'landing-'));
  fs.mkdirSync(path.join(root, 'landing'));
  for (const language of languages)
    fs.writeFileSync(path.join(root, 'landing', `${language}.html`), `${language} <b>%BUILD_NUMBER%</b>`);
  return root;
}

describe('the landing page in the visitor language', () => {
  it('reads Accept-Language by weight, then by order, regions counting as their language', () => {
    expect(preferredLanguages('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.95, *;q=0.5')).toEqual(['fr', 'de', 'fr', 'en']);
    expect(preferredLanguages('de;q=0, en')).toEqual(['en']);
    expect(preferredLanguages(undefined)).toEqual([]);
    expect(preferredLanguages('')).toEqual([]);
  });

  it('picks the first built language the visitor wants, else English', () => {
    const pick = landingPages(builtSite(['en', 'de']), '3');
    expect(pick?.('fr, de-AT;q=0.8')).toBe('de <b>3</b>');
    expect(pick?.('ja')).toBe('en <b>3</b>');
    expect(pick?.(undefined)).toBe('en <b>3</b>');
  });

  it('shows the server’s build number, escaped', () => {
    expect(landingPages(builtSite(['en']), '4 <beta>')?.('en')).toBe('en <b>4 &lt;beta&gt;</b>');
  });

  it('is absent when the build has no English landing page', () => {
    expect(landingPages(builtSite([]), '3')).toBeNull();
    expect(landingPages(fs.mkdtempSync(path.join(os.tmpdir(), 'no-landing-')), '3')).toBeNull();
  });
});
