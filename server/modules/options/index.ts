import type { components } from '../../../openapi/schema.d.ts';
import type { Config } from '../../config.ts';
import { optionsHandlers } from './handlers.ts';

export interface OptionsDeps {
  config: Config;
  signInProviders: () => components['schemas']['SignInProvider'][];
  hostedPayments: boolean;
}

/** What the browser may configure itself with: no behaviour beyond answering its operations. */
export function createOptionsModule({ config, signInProviders, hostedPayments }: OptionsDeps) {
  return { handlers: optionsHandlers(config, signInProviders, hostedPayments) };
}
