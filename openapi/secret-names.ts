// The rules for a custom secret's name, shared by the browser's checks and the server's, which
// decides. A secret becomes an environment variable of the agent's runtime.

/** The contract's SecretNameString pattern: an environment variable name. */
export const SECRET_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const SECRET_NAME_MAX_LENGTH = 100;

/** Variables the runtime's shell and git rely on: a secret of that name would break the workspace. */
export const RESERVED_SECRET_NAME = /^(PATH|HOME|SHELL|USER|PWD|LANG|TERM|TMPDIR|LD_.*|GIT_.*)$/;
