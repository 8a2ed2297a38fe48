export interface Credentials {
  email: string;
  password: string;
  /** Keep the token across browser restarts (localStorage) instead of for this tab only (sessionStorage). */
  rememberMe: boolean;
}

/** A bearer token obtained by signing in, and where it should be kept. */
export interface ObtainedToken {
  token: string;
  rememberMe: boolean;
}
