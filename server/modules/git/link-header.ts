/** The URL of an RFC 8288 Link header's `rel="next"`, if any. */
export function nextLink(header: string | null): string | null {
  if (!header) return null;
  for (const part of header.split(',')) {
    const match = /<([^>]+)>\s*;(.*)$/.exec(part.trim());
    if (match && /\brel="?([^";]*\s)?next(\s[^";]*)?"?/.test(match[2] ?? '')) return match[1] ?? null;
  }
  return null;
}

/** The `page` query parameter of a URL, if it has one. */
export function pageOf(url: string | null): number | null {
  if (!url) return null;
  const page = Number(new URL(url).searchParams.get('page'));
  return Number.isInteger(page) && page > 0 ? page : null;
}
