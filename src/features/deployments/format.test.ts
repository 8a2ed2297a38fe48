import { describe, expect, it } from 'vitest';
import { formatCost, runtimeOf } from './format.ts';

describe('deployment figures', () => {
  it('gives the runtime in minutes under an hour, hours with one decimal under a day, then days and hours', () => {
    expect(runtimeOf(0)).toEqual({ unit: 'minutes', minutes: 0 });
    expect(runtimeOf(0.999)).toEqual({ unit: 'minutes', minutes: 59 });
    expect(runtimeOf(1)).toEqual({ unit: 'hours', hours: '1.0' });
    expect(runtimeOf(23.99)).toEqual({ unit: 'hours', hours: '23.9' });
    expect(runtimeOf(24)).toEqual({ unit: 'daysHours', days: 1, hours: 0 });
    expect(runtimeOf(75.5)).toEqual({ unit: 'daysHours', days: 3, hours: 3 });
  });

  it('shows costs with 2 to 4 decimals', () => {
    expect(formatCost(0.013395, 'en')).toBe('$0.0134');
    expect(formatCost(1.5, 'en')).toBe('$1.50');
    expect(formatCost(0, 'en')).toBe('$0.00');
    expect(formatCost(12.3456789, 'en')).toBe('$12.3457');
  });
});
