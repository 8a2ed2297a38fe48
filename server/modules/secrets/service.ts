import { RESERVED_SECRET_NAME } from '../../../openapi/secret-names.ts';
import { isUniqueViolation, type Db } from '../../db/index.ts';
import { Conflict, NotFound, ValidationFailure } from '../../shared/domain-errors.ts';
import type { SecretBox } from '../../shared/secret-box.ts';
import { createSecretsStore } from './store.ts';

const taken = (name: string) => new Conflict(`A secret named ${name} already exists.`);

function checkName(name: string | undefined) {
  if (name !== undefined && RESERVED_SECRET_NAME.test(name))
    throw new ValidationFailure([
      {
        loc: ['body', 'name'],
        msg: `${name} is used by the workspace itself; choose another name`,
        type: 'value_error',
      },
    ]);
}

/** Custom secrets: values are encrypted at rest, never answered, and only given to runtimes. */
export function createSecretsService(db: Db, box: SecretBox) {
  const store = createSecretsStore(db);

  return {
    async list(userId: string) {
      return store.list(userId);
    },

    async create(userId: string, input: { name: string; value: string; description?: string | null }) {
      checkName(input.name);
      try {
        await store.insert({
          userId,
          name: input.name,
          value: box.encrypt(input.value),
          description: input.description ?? null,
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw taken(input.name);
        throw error;
      }
    },

    async update(userId: string, name: string, input: { name?: string; value?: string; description?: string | null }) {
      checkName(input.name);
      const changes = {
        ...(input.name !== undefined && { name: input.name }),
        ...(input.value !== undefined && { value: box.encrypt(input.value) }),
        ...(input.description !== undefined && { description: input.description }),
      };
      let updated;
      try {
        updated = await store.update(userId, name, changes);
      } catch (error) {
        if (isUniqueViolation(error)) throw taken(input.name ?? name);
        throw error;
      }
      if (updated.length === 0) throw new NotFound('Secret not found');
    },

    async remove(userId: string, name: string) {
      const deleted = await store.remove(userId, name);
      if (deleted.length === 0) throw new NotFound('Secret not found');
    },

    /** Name → value, for a runtime's environment. */
    async values(userId: string): Promise<Record<string, string>> {
      const rows = await store.all(userId);
      return Object.fromEntries(rows.map((r) => [r.name, box.decrypt(r.value)]));
    },

    /** Name → description, told to the agent (which never sees the values in its prompt). */
    async descriptions(userId: string): Promise<Record<string, string>> {
      const rows = await this.list(userId);
      return Object.fromEntries(rows.map((r) => [r.name, r.description ?? '']));
    },
  };
}

export type SecretsService = ReturnType<typeof createSecretsService>;
