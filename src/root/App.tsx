import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Toaster } from '../ui/index.ts';
import type { AppRouter } from './router.ts';
import { queryClient } from '../app/services.ts';
import { SessionContext, sessionInput, type createSessionLogic } from '../app/session.ts';

interface AppProps {
  router: AppRouter;
  sessionLogic: ReturnType<typeof createSessionLogic>;
}

export function App({ router, sessionLogic }: AppProps) {
  const { t } = useTranslation();
  return (
    <QueryClientProvider client={queryClient}>
      <SessionContext.Provider logic={sessionLogic} options={{ input: sessionInput() }}>
        <RouterProvider router={router} />
        {/* Bottom right: at the top, toasts covered the workspace menu bar and the header. */}
        <Toaster position="bottom-right" theme="system" richColors closeButton containerAriaLabel={t('toasts.label')} />
      </SessionContext.Provider>
    </QueryClientProvider>
  );
}
