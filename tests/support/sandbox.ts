import { findOnPath } from '../../server/runtime/executables.ts';

/**
 * Where bubblewrap and pasta are here, or in CI (which installs them), conversations run as
 * they do for users: confined, refused without the sandbox in hosted mode. A developer's
 * machine without them still runs the hosted-mode tests, unconfined; the security tests are
 * skipped there.
 */
export const sandboxAvailable = Boolean(process.env.CI) || Boolean(findOnPath('bwrap') && findOnPath('pasta'));

export function sandboxTestEnv(): Record<string, string> {
  return sandboxAvailable ? {} : { SANDBOX_REQUIRED: '0' };
}
