/** The path of the server's bundle, built first when a file it came from changed. */
export function serverBundle(): Promise<string>;

/** Whether the bundle is missing, or its list of inputs unreadable, or one of them gone or newer than it. */
export function isStale(bundle: string, inputsFile: string, base: string): boolean;
