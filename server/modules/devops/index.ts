import { devopsHandlers } from './handlers.ts';
import { createDevopsService, type DevopsDeps } from './service.ts';
import { createDevopsStore } from './store.ts';

export { devopsAnnouncer, type DevopsService } from './service.ts';

export function createDevopsModule(deps: Omit<DevopsDeps, 'store'>) {
  const service = createDevopsService({ ...deps, store: createDevopsStore(deps.db) });
  return { service, handlers: devopsHandlers(service) };
}
