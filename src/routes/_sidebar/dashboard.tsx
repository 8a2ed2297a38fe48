import { createFileRoute } from '@tanstack/react-router';
import { DashboardPage } from '../../features/home/index.ts';

export const Route = createFileRoute('/_sidebar/dashboard')({
  component: DashboardPage,
});
