import freeMailDomains from 'email-providers/all.json' with { type: 'json' };

const domains = new Set<string>(freeMailDomains);

/** True for addresses at a free-mail provider (gmail.com, outlook.com, ...), from a maintained list. */
export function isPersonalEmail(email: string): boolean {
  const domain = email
    .slice(email.lastIndexOf('@') + 1)
    .trim()
    .toLowerCase();
  return domains.has(domain);
}
