import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config.ts';

describe('SANDBOX_HOST_PORTS', () => {
  it('is a list of ports, empty by default', () => {
    expect(parseConfig({}).sandboxHostPorts).toEqual([]);
    expect(parseConfig({ SANDBOX_HOST_PORTS: '3001, 8080,' }).sandboxHostPorts).toEqual([3001, 8080]);
  });

  it('refuses anything but port numbers, naming the variable', () => {
    for (const value of ['80a', '0', '70000', '8080;rm']) {
      expect(() => parseConfig({ SANDBOX_HOST_PORTS: value })).toThrow(ConfigError);
      expect(() => parseConfig({ SANDBOX_HOST_PORTS: value })).toThrow(
        /SANDBOX_HOST_PORTS must be comma-separated port numbers/,
      );
    }
  });
});
