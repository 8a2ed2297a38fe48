import { expect, it } from 'vitest';
import { profileSearch } from './payment-return.ts';

it('keeps only the outcomes the hosted pages return with', () => {
  expect(profileSearch({ payment: 'success' })).toEqual({ payment: 'success' });
  expect(profileSearch({ payment: 'card-saved', other: 'x' })).toEqual({ payment: 'card-saved' });
  expect(profileSearch({ payment: 'cancelled' })).toEqual({ payment: 'cancelled' });
  expect(profileSearch({ payment: 'refunded' })).toEqual({});
  expect(profileSearch({ payment: 1 })).toEqual({});
  expect(profileSearch({})).toEqual({});
});
