/** What a failed request looks like when the server answered it (ApiError in src/api has this shape). */
export interface ServerRejection {
  status: number;
  /** The server's own explanation; empty when it gave none. */
  message: string;
}

export function isServerRejection(error: unknown): error is ServerRejection {
  return error instanceof Error && typeof (error as Partial<ServerRejection>).status === 'number';
}

/**
 * Text for the user: either the server's own words, or one of the product's messages,
 * named here and worded (and translated) by the view.
 */
export type Notice<TMessage extends string> = { kind: 'server'; text: string } | { kind: 'message'; message: TMessage };

export const serverNotice = (text: string): Notice<never> => ({ kind: 'server', text });

export const messageNotice = <TMessage extends string>(message: TMessage): Notice<TMessage> => ({
  kind: 'message',
  message,
});
