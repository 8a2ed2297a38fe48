import type { Locator } from 'playwright-core';

/** Fills the Contact information dialog's address (Berlin) and saves it; the organization's name is the caller's. */
export async function saveBerlinAddress(contact: Locator): Promise<void> {
  await contact.getByLabel('Legal name').fill('Ada Lovelace');
  await contact.getByLabel('Street address').fill('Hauptstraße 1');
  await contact.getByLabel('City').fill('Berlin');
  await contact.getByLabel('Province / state').fill('Berlin');
  await contact.getByLabel('Postal code').fill('10115');
  await contact.getByRole('button', { name: 'Save' }).click();
  await contact.waitFor({ state: 'detached' });
}
