import type { Db } from '../../db/index.ts';
import { apiKeysHandlers } from './handlers.ts';
import { createApiKeysService, type ApiKeysDeps } from './service.ts';

export { API_KEY_PREFIX, apiKeyOwner, type ApiKeysService } from './service.ts';

export function createApiKeysModule(deps: ApiKeysDeps & { db: Db; hosted: boolean }) {
  const service = createApiKeysService(deps.db, deps);
  return { service, handlers: apiKeysHandlers(service, deps.hosted) };
}
