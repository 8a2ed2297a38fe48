import { deploymentsHandlers } from './handlers.ts';
import { createDeploymentsService, type DeploymentsDeps } from './service.ts';

export type { DeploymentsService } from './service.ts';
export { digitalOceanProvider } from './digitalocean.ts';
export { localProvider } from './local.ts';
export type { DeployProvider, DeployRequest } from './types.ts';

export function createDeploymentsModule(deps: DeploymentsDeps) {
  const service = createDeploymentsService(deps);
  return { service, handlers: deploymentsHandlers(service) };
}
