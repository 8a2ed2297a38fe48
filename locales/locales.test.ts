import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// `en` is the source of every namespace; the other languages must say the same things.
const localesDir = import.meta.dirname;
const SOURCE = 'en';
const languages = readdirSync(localesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const namespacesOf = (language: string) =>
  readdirSync(path.join(localesDir, language))
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort();

type Messages = { [key: string]: string | Messages };

function read(language: string, namespace: string): Messages {
  return JSON.parse(readFileSync(path.join(localesDir, language, `${namespace}.json`), 'utf8')) as Messages;
}

/** Every leaf as "a.b.c" → text. */
function flatten(messages: Messages, prefix = ''): Map<string, unknown> {
  return new Map(
    Object.entries(messages).flatMap(([key, value]) =>
      typeof value === 'object' && value !== null
        ? [...flatten(value, `${prefix}${key}.`)]
        : [[`${prefix}${key}`, value] as const],
    ),
  );
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

const sourceNamespaces = namespacesOf(SOURCE);
const otherLanguages = languages.filter((language) => language !== SOURCE);

/**
 * German addresses the user formally (Sie) everywhere. The quick-start prompts are exempt: they
 * are the user's own words to the agent.
 */
const INFORMAL_GERMAN =
  /\b(du|dich|dir|dein|deine|deinen|deinem|deiner|deines)\b|\bbitte (versuche|prüfe|melde|gib|wähle|lade|gehe|öffne|füge|lege|speichere|wende|starte|klicke)\b/i;
const USER_TO_AGENT = /^(quickStartPrompt|suggestions)\./;

describe('locales', () => {
  it('has English and at least one other language', () => {
    expect(sourceNamespaces.length).toBeGreaterThan(0);
    expect(otherLanguages).toEqual(expect.arrayContaining(['de', 'fr']));
  });

  it.each(otherLanguages)('%s has exactly the namespace files of en', (language) => {
    expect(namespacesOf(language)).toEqual(sourceNamespaces);
  });

  it.each(sourceNamespaces)('every en text of %s is a non-empty string', (namespace) => {
    for (const [key, text] of flatten(read(SOURCE, namespace))) {
      expect(typeof text === 'string' && text.trim() !== '', `${SOURCE}/${namespace}: ${key}`).toBe(true);
    }
  });

  describe.each(otherLanguages)('%s', (language) => {
    it.each(sourceNamespaces)(
      '%s has every key of en, non-empty, with the same placeholders, and no extra key',
      (namespace) => {
        const source = flatten(read(SOURCE, namespace));
        const translated = flatten(read(language, namespace));
        for (const [key, sourceText] of source) {
          const text = translated.get(key);
          expect(
            typeof text === 'string' && text.trim() !== '',
            `${language}/${namespace}: ${key} is missing or empty`,
          ).toBe(true);
          expect(placeholders(String(text)), `${language}/${namespace}: ${key} placeholders`).toEqual(
            placeholders(String(sourceText)),
          );
        }
        const extra = [...translated.keys()].filter((key) => !source.has(key));
        expect(extra, `${language}/${namespace}: keys that en does not have`).toEqual([]);
      },
    );
  });

  it.each(sourceNamespaces)('de addresses the user as Sie, never du, in %s', (namespace) => {
    for (const [key, text] of flatten(read('de', namespace))) {
      if (USER_TO_AGENT.test(key)) continue;
      expect(INFORMAL_GERMAN.test(String(text)), `de/${namespace}: ${key}: ${String(text)}`).toBe(false);
    }
  });
});
