import { hash, verify } from '@node-rs/argon2';

/** argon2id, as every account and affiliate password is kept. */
export const hashPassword = (password: string): Promise<string> => hash(password);

// An unknown sign-in name still pays for one verification, so the answer's time does not tell it apart.
const decoyHash = hash('decoy password for unknown sign-in names');

/** Whether `password` matches `stored`; with nothing stored, false after the same work. */
export async function checkPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (stored) return verify(stored, password);
  await verify(await decoyHash, password);
  return false;
}
