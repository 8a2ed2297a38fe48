import type { Db } from '../../db/index.ts';
import type { SecretBox } from '../../shared/secret-box.ts';
import { secretsHandlers } from './handlers.ts';
import { createSecretsService } from './service.ts';

export type { SecretsService } from './service.ts';

export function createSecretsModule(deps: { db: Db; box: SecretBox }) {
  const service = createSecretsService(deps.db, deps.box);
  return { service, handlers: secretsHandlers(service) };
}
