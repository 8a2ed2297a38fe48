const GMAIL = new Set(['gmail.com', 'googlemail.com']);

/**
 * The person behind an email address, for the trial's once-per-person rule: lower-cased, without
 * a `+tag`, and for Gmail (whose mailboxes ignore dots, and googlemail.com is the same domain)
 * without dots. Other providers' dots are kept: for them `a.b@` and `ab@` are different people.
 * Migration 0024 computes the same for claims made before the rule.
 */
export function claimantOf(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  const domain = address.slice(at + 1);
  const local = address.slice(0, at).split('+')[0] ?? '';
  return GMAIL.has(domain) ? `${local.replaceAll('.', '')}@gmail.com` : `${local}@${domain}`;
}
