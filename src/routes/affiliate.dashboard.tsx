import { createFileRoute } from '@tanstack/react-router';
import { AffiliateDashboard } from '../features/affiliate/index.ts';

export const Route = createFileRoute('/affiliate/dashboard')({ component: AffiliateDashboard });
