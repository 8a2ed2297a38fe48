import { describe, expect, it } from 'vitest';
import { accruedMicros, aliveMs, dueCharges, type Accruing } from './cost.ts';

const start = new Date('2026-11-26T10:00:00Z');
const at = (minutes: number) => new Date(start.getTime() + minutes * 60_000);
const droplet = (over: Partial<Accruing> = {}): Accruing => ({
  id: 'd1',
  hourlyCostMicros: 8_930n, // $0.00893 an hour, DigitalOcean's smallest droplet
  createdAt: start,
  deletedAt: null,
  chargedHours: 0,
  ...over,
});

describe('deployment cost', () => {
  it('accrues per second, rounded down to the micro-dollar', () => {
    expect(accruedMicros(8_930n, 3_600_000)).toBe(8_930n);
    expect(accruedMicros(8_930n, 1_000)).toBe(2n); // 8930 / 3600 = 2.48…
    expect(accruedMicros(8_930n, 90 * 60_000)).toBe(13_395n);
    expect(accruedMicros(0n, 10 * 3_600_000)).toBe(0n);
  });

  it('is alive until now, or until its deletion', () => {
    expect(aliveMs(droplet(), at(30))).toBe(30 * 60_000);
    expect(aliveMs(droplet({ deletedAt: at(10) }), at(300))).toBe(10 * 60_000);
  });

  it('charges each whole hour once, at the hourly price, with a key per hour', () => {
    expect(dueCharges(droplet(), at(59), 'web-1')).toEqual([]);
    const due = dueCharges(droplet(), at(185), 'web-1');
    expect(due.map((c) => [c.idempotencyKey, c.amountMicros, c.chargedHours])).toEqual([
      ['deployment:d1:hour:1', 8_930n, 1],
      ['deployment:d1:hour:2', 8_930n, 2],
      ['deployment:d1:hour:3', 8_930n, 3],
    ]);
    expect(dueCharges(droplet({ chargedHours: 3 }), at(185), 'web-1')).toEqual([]);
  });

  it('charges the rest of the last hour at deletion, so the charges add up to the accrued cost', () => {
    const deleted = droplet({ deletedAt: at(150), chargedHours: 1 });
    const due = dueCharges(deleted, at(900), 'web-1');
    expect(due.map((c) => c.idempotencyKey)).toEqual(['deployment:d1:hour:2', 'deployment:d1:final']);
    expect(due.at(-1)?.description).toBe('web-1: last 30 min');
    const charged = 8_930n + due.reduce((sum, c) => sum + c.amountMicros, 0n);
    expect(charged).toBe(accruedMicros(8_930n, 150 * 60_000));
    // A free deployment (the local provider) is never charged.
    expect(dueCharges(droplet({ hourlyCostMicros: 0n, deletedAt: at(150) }), at(150), 'x')).toEqual([]);
  });
});
