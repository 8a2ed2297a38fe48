import { createFileRoute, Outlet } from '@tanstack/react-router';
import { SettingsLayout } from '../../features/settings/index.ts';

export const Route = createFileRoute('/_sidebar/settings')({
  component: () => (
    <SettingsLayout>
      <Outlet />
    </SettingsLayout>
  ),
});
