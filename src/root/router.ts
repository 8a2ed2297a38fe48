// The composition root: the only place that sees every route (through the generated tree), above routes and features.
import { createRouter } from '@tanstack/react-router';
import { routeTree } from '../routeTree.gen.ts';
import { showProgressWhileNavigating } from '../app/progress-bar.ts';
import { queryClient } from '../app/services.ts';

export function createAppRouter() {
  const router = createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: 'intent',
    scrollRestoration: true,
  });
  showProgressWhileNavigating(router);
  return router;
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
  interface StaticDataRouteOption {
    /** A page of the public site (landing, affiliate programme): it brings its own header, not the application's. */
    publicSite?: boolean;
    /** Works with or without an account: the session's loading and the onboarding hold never replace it (the chat-only onboarding). */
    withoutAccount?: boolean;
  }
}
