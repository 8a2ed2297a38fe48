import type { components } from '../../openapi/schema.d.ts';

export type GitProvider = components['schemas']['GitProvider'];
/** The git hosts a token can be saved for, in the order the screens list them. */
export const GIT_PROVIDERS: readonly GitProvider[] = ['github', 'gitlab', 'bitbucket'];
