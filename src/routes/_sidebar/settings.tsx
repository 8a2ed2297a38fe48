import { createFileRoute, Outlet } from '@tanstack/react-router';
import { pageTexts } from '../../app/i18n.ts';
import { SettingsLayout } from '../../features/settings/index.ts';

export const Route = createFileRoute('/_sidebar/settings')({
  loader: pageTexts('settings'),
  component: () => (
    <SettingsLayout>
      <Outlet />
    </SettingsLayout>
  ),
});
