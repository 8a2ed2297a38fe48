import { Forbidden, NotFound, Unavailable, type DomainError } from '../../shared/domain-errors.ts';
import { refusalOf } from '../../shared/outbound.ts';
import type { GitProvider } from './types.ts';

export const PROVIDER_NAMES: Record<GitProvider, string> = {
  github: 'GitHub',
  gitlab: 'GitLab',
  bitbucket: 'Bitbucket',
};

/**
 * What the host's refusal means for the user, naming the provider. Its body is not relayed: it is
 * another service's text. The token's rejection is Forbidden (NotAuthenticated would sign the user
 * out of Atelier, whose own session is fine); a rate limit and an unreachable host are Unavailable.
 */
export async function hostRefusal(provider: GitProvider, response: Response, what: string): Promise<DomainError> {
  const name = PROVIDER_NAMES[provider];
  await response.body?.cancel().catch(() => undefined);
  const remaining = response.headers.get('x-ratelimit-remaining') ?? response.headers.get('ratelimit-remaining');
  if (response.status === 429 || (response.status === 403 && remaining === '0')) {
    const reset = Number(response.headers.get('x-ratelimit-reset') ?? response.headers.get('ratelimit-reset'));
    const at = Number.isFinite(reset) && reset > 0 ? ` until ${new Date(reset * 1000).toISOString()}` : '';
    return new Unavailable(`${name}'s rate limit for this token is reached${at}; try again later.`);
  }
  if (response.status === 401)
    return new Forbidden(`${name} rejected the token. Replace it in Settings → Integrations.`);
  if (response.status === 403) return new Forbidden(`${name} does not let this token read ${what}.`);
  if (response.status === 404) return new NotFound(`${name} has no ${what}, or this token cannot see it.`);
  return new Unavailable(`${name} answered ${response.status} for ${what}; try again later.`);
}

/** The host could not be reached: refused as an internal address (saying so), or it did not answer. */
export const unreachable = (provider: GitProvider, error: unknown) =>
  new Unavailable(refusalOf(error)?.message ?? `${PROVIDER_NAMES[provider]} could not be reached; try again later.`);

/**
 * Calls of one host's REST API with a token's headers: the response, or a DomainError naming the
 * provider when it refuses or cannot be reached (15 s at most).
 */
export function restClient(provider: GitProvider, base: string, headers: Record<string, string>, fetchImpl = fetch) {
  async function call(path: string, what: string): Promise<Response> {
    let response: Response;
    try {
      response = await fetchImpl(`${base}${path}`, { headers, signal: AbortSignal.timeout(15_000) });
    } catch (error) {
      throw unreachable(provider, error);
    }
    if (!response.ok) throw await hostRefusal(provider, response, what);
    return response;
  }
  /** A response's JSON body; a host that answers something else is refused like a broken one. */
  async function bodyOf<T>(response: Response, what: string): Promise<T> {
    try {
      return (await response.json()) as T;
    } catch {
      throw new Unavailable(`${PROVIDER_NAMES[provider]} answered something other than JSON for ${what}.`);
    }
  }
  return {
    call,
    bodyOf,
    json: async <T>(path: string, what: string) => bodyOf<T>(await call(path, what), what),
    /** The answer, or `empty` when the host has no such thing (a directory that does not exist). */
    async orWhenMissing<T>(read: Promise<T>, empty: T): Promise<T> {
      try {
        return await read;
      } catch (error) {
        if (error instanceof NotFound) return empty;
        throw error;
      }
    },
  };
}

/** A slash-separated path (owner/repo, a file's path) with each segment URL-encoded. */
export const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');
