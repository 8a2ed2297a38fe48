import { createRootRoute, Outlet } from '@tanstack/react-router';
import { AppShell, NotFoundPage } from '../features/shell/index.ts';

export const Route = createRootRoute({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
});

function RootLayout() {
  return (
    <AppShell>
      <Outlet />
    </AppShell>
  );
}
