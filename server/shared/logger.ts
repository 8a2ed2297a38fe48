/** What the server's parts log through: the Fastify app's pino logger fits, and so does a test's stand-in. */
export interface Logger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}
