import { createFileRoute } from '@tanstack/react-router';
import { FreeCreditBanners } from '../../features/free-credit/index.ts';
import { DashboardPage } from '../../features/home/index.ts';

export const Route = createFileRoute('/_sidebar/dashboard')({
  component: () => (
    <>
      <FreeCreditBanners />
      <DashboardPage />
    </>
  ),
});
