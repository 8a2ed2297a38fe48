import { createFileRoute, Outlet } from '@tanstack/react-router';
import { EmailVerificationBanner } from '../features/auth/index.ts';
import { SidebarLayout } from '../features/conversations/index.ts';

/** The signed-in pages beside the sidebar: the home and the workspace. */
export const Route = createFileRoute('/_sidebar')({
  component: () => (
    <SidebarLayout>
      <EmailVerificationBanner />
      <Outlet />
    </SidebarLayout>
  ),
});
