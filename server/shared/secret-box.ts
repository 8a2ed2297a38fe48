import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const VERSION = 'v1';

/**
 * Encrypts values at rest (LLM and provider keys, custom secrets, session keys) with
 * AES-256-GCM. The stored text is `v1:<base64 of iv | tag | ciphertext>`; the tag makes any
 * tampering or a wrong key fail loudly instead of yielding garbage.
 */
export class SecretBox {
  private readonly key: Buffer;

  /** `secret` is high-entropy text (SECRET_KEY or the generated key file); SHA-256 turns it into 32 bytes. */
  constructor(secret: string) {
    this.key = createHash('sha256').update(secret).digest();
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  decrypt(stored: string): string {
    const [version, payload] = stored.split(':', 2);
    if (version !== VERSION || !payload) throw new Error('Unknown secret format');
    const raw = Buffer.from(payload, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }

  /**
   * A keyed one-way fingerprint of `value` (HMAC-SHA256 under this server's key): it tells two
   * equal values apart from others, such as a card used twice, without keeping the value.
   */
  fingerprint(value: string): string {
    return createHmac('sha256', this.key).update(`fingerprint:${value}`).digest('base64url');
  }

  /** A keyed signature of `value` for `purpose` (HMAC-SHA256 under this server's key), for tokens the server hands out and checks itself. */
  sign(purpose: string, value: string): string {
    return createHmac('sha256', this.key).update(`${purpose}:${value}`).digest('base64url');
  }

  /** Whether `signature` is `value`'s for `purpose`, in constant time. */
  verify(purpose: string, value: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(purpose, value));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /** Whether `candidate` is the plain text of `stored`, in constant time for equal lengths. */
  matches(stored: string, candidate: string): boolean {
    let plain: string;
    try {
      plain = this.decrypt(stored);
    } catch {
      return false;
    }
    const a = Buffer.from(plain);
    const b = Buffer.from(candidate);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}

/**
 * The server's secret: SECRET_KEY when set, else `<dataDir>/secret.key`, created once with
 * mode 0600. The key is written to a private file and then hard-linked into place, which
 * fails when the file exists: two processes starting on one data directory agree on one key
 * and neither can read a half-written file.
 */
export function loadSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'secret.key');
  fs.mkdirSync(dataDir, { recursive: true });
  if (!fs.existsSync(file)) {
    const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(draft, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
    try {
      fs.linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(draft, { force: true });
    }
  }
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (secret.length < 32)
    throw new Error(
      `${file} is too short to be a key; delete it to generate a new one (encrypted values are then lost)`,
    );
  return secret;
}
