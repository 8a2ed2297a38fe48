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

describe('the sandbox', () => {
  it('is required in hosted mode and optional self-hosted, unless the operator says otherwise', () => {
    expect(parseConfig({}).sandboxRequired).toBe(true);
    expect(parseConfig({ APP_MODE: 'oss' }).sandboxRequired).toBe(false);
    expect(parseConfig({ SANDBOX_REQUIRED: '0' }).sandboxRequired).toBe(false);
    expect(parseConfig({ APP_MODE: 'oss', SANDBOX_REQUIRED: 'true' }).sandboxRequired).toBe(true);
  });

  it('takes the limits per conversation, with their defaults, and refuses nonsense', () => {
    expect(parseConfig({}).sandboxLimits).toEqual({ memoryMb: 2048, processes: 512, cpus: 1, diskMb: 10240 });
    expect(
      parseConfig({ SANDBOX_MEMORY_MB: '512', SANDBOX_PROCESSES: '64', SANDBOX_CPUS: '0.5', SANDBOX_DISK_MB: '100' })
        .sandboxLimits,
    ).toEqual({ memoryMb: 512, processes: 64, cpus: 0.5, diskMb: 100 });
    for (const [name, value] of [
      ['SANDBOX_MEMORY_MB', '10'],
      ['SANDBOX_PROCESSES', 'lots'],
      ['SANDBOX_CPUS', '0'],
      ['SANDBOX_DISK_MB', '-1'],
    ])
      expect(() => parseConfig({ [name as string]: value })).toThrow(new RegExp(name as string));
  });
});
