import { createRootRoute, Outlet } from '@tanstack/react-router';
import { AppShell, NotFoundPage, PageFailed } from '../features/shell/index.ts';

export const Route = createRootRoute({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
  errorComponent: PageFailed,
});

function RootLayout() {
  return (
    <AppShell>
      <Outlet />
    </AppShell>
  );
}
