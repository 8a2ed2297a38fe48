import { createFileRoute } from '@tanstack/react-router';
import { ExternalSignInPage, type ExternalSignInReturn } from '../features/auth/pages.ts';

const PARAMETERS = ['code', 'state', 'error', 'error_description'] as const;

/** Where a git host's authorization page sends the user back: /oauth/github/callback?code=…&state=… */
export const Route = createFileRoute('/oauth/$identity/callback')({
  validateSearch: (search: Record<string, unknown>): ExternalSignInReturn =>
    Object.fromEntries(PARAMETERS.flatMap((key) => (typeof search[key] === 'string' ? [[key, search[key]]] : []))),
  component: function ExternalSignInRoute() {
    return <ExternalSignInPage identity={Route.useParams().identity} back={Route.useSearch()} />;
  },
});
