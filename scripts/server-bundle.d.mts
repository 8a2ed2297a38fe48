/** The path of the server's bundle, built first when a file it came from changed. */
export function serverBundle(): Promise<string>;
