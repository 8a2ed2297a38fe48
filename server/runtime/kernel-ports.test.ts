import { describe, expect, it } from 'vitest';
import { freeKernelPorts } from './python-kernel.ts';

describe('the Python kernel’s ports', () => {
  it('are five distinct ports, none of those already forwarded (pasta refuses a port named twice)', async () => {
    const forwarded: number[] = [];
    for (let i = 0; i < 20; i++) {
      const ports = Object.values(await freeKernelPorts(forwarded));
      expect(new Set(ports).size).toBe(5);
      expect(ports.filter((port) => forwarded.includes(port))).toEqual([]);
      // The next draw must avoid these too, as a sandbox's app ports are avoided.
      forwarded.push(...ports);
    }
  });
});
