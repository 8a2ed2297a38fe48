import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSecret, SecretBox } from './secret-box.ts';

describe('SecretBox', () => {
  const box = new SecretBox('a'.repeat(40));

  it('round-trips and never stores the plain text', () => {
    const stored = box.encrypt('sk-live-123');
    expect(stored).not.toContain('sk-live-123');
    expect(box.decrypt(stored)).toBe('sk-live-123');
    expect(box.encrypt('sk-live-123')).not.toBe(stored);
  });

  it('refuses a tampered value or another key', () => {
    const stored = box.encrypt('value');
    const bytes = Buffer.from(stored.slice(3), 'base64');
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 1, bytes.length - 1);
    expect(() => box.decrypt(`v1:${bytes.toString('base64')}`)).toThrow();
    expect(() => new SecretBox('b'.repeat(40)).decrypt(stored)).toThrow();
    expect(box.matches(stored, 'value')).toBe(true);
    expect(box.matches(stored, 'other')).toBe(false);
  });

  it('generates the key file once, private to the owner', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'secret-'));
    const first = loadSecret(undefined, dir);
    expect(loadSecret(undefined, dir)).toBe(first);
    expect(fs.statSync(path.join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual(['secret.key']);
    expect(loadSecret('x'.repeat(32), dir)).toBe('x'.repeat(32));
    fs.rmSync(dir, { recursive: true });
  });
});
