import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import common from '../../../locales/en/common.json';
import { PageFailed } from './PageFailed.tsx';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { common } }, defaultNS: 'common' });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

it('says the page could not be shown, and reloads it on request', () => {
  const reload = vi.fn();
  vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });
  render(<PageFailed />);
  const alert = screen.getByRole('alert');
  expect(alert.textContent).toContain('This page could not be shown');
  fireEvent.click(screen.getByRole('button', { name: 'Reload the page' }));
  expect(reload).toHaveBeenCalledTimes(1);
});
