import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, paths } from '../../openapi/schema.d.ts';
import { ApiError } from './errors.ts';

export type ApiClient = Client<paths>;
type LoginRequest = components['schemas']['LoginRequest'];
type IdentityCallbackRequest = components['schemas']['IdentityCallbackRequest'];
export type RegistrationRequest = components['schemas']['RegistrationRequest'];
export type RegistrationResult = components['schemas']['RegistrationResult'];
export type Settings = components['schemas']['Settings'];
export type SettingsUpdate = components['schemas']['SettingsUpdate'];

/** Adds `Authorization: Bearer <token>` to every request while a token is stored. */
export function bearerToken(readToken: () => string | null): Middleware {
  return {
    onRequest({ request }) {
      const token = readToken();
      if (token) request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  };
}

export function createApiClient(options: {
  baseUrl: string;
  readToken: () => string | null;
  fetch?: (request: Request) => Promise<Response>;
}): ApiClient {
  const client = createClient<paths>({ baseUrl: options.baseUrl, ...(options.fetch ? { fetch: options.fetch } : {}) });
  client.use(bearerToken(options.readToken));
  return client;
}

/** The response data, or an ApiError carrying the status and the error body. */
export async function dataOf<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok || data === undefined) throw new ApiError(response.status, error);
  return data;
}

/** For calls answering 204 (no body): resolves, or throws the ApiError. */
export async function noContent(pending: Promise<{ error?: unknown; response: Response }>): Promise<void> {
  const { error, response } = await pending;
  if (!response.ok) throw new ApiError(response.status, error);
}

/** The calls the application makes, each resolving to its data or throwing an ApiError. */
export function createRequests(client: ApiClient) {
  return {
    logIn: (body: LoginRequest) => dataOf(client.POST('/api/auth/login', { body })),
    register: (body: RegistrationRequest) => dataOf(client.POST('/api/auth/register', { body })),
    logOut: () => dataOf(client.POST('/api/auth/logout')),
    currentUser: (signal?: AbortSignal) => dataOf(client.GET('/api/auth/me/extended', { signal })),
    config: (signal?: AbortSignal) => dataOf(client.GET('/api/options/config', { signal })),
    /** The user's settings; null when they never saved any (the server answers 404). */
    settings: async (signal?: AbortSignal): Promise<Settings | null> => {
      try {
        return await dataOf(client.GET('/api/settings', { signal }));
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    saveSettings: (body: SettingsUpdate) => dataOf(client.POST('/api/settings', { body })),
    /** The return from a git host's sign-in: its code for a session. */
    identityCallback: (identity: string, body: IdentityCallbackRequest) =>
      dataOf(client.POST('/api/{identity}/callback', { params: { path: { identity } }, body })),
    verifyEmail: (token: string) => dataOf(client.POST('/api/auth/verify-email', { body: { token } })),
    resendEmailVerification: () => dataOf(client.POST('/api/email/verification')),
    /** The conversation's live deployments (the deployments dialog, the App menu's staging and production). */
    deployments: (conversationId: string, signal?: AbortSignal) =>
      dataOf(
        client.GET('/api/deployments/{conversation_id}', {
          params: { path: { conversation_id: conversationId } },
          signal,
        }),
      ),
    deleteDeployment: (conversationId: string, dropletName: string) =>
      dataOf(
        client.DELETE('/api/deployments/{conversation_id}/{droplet_name}', {
          params: { path: { conversation_id: conversationId, droplet_name: dropletName } },
        }),
      ),
  };
}

export type Requests = ReturnType<typeof createRequests>;
