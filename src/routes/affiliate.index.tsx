import { createFileRoute } from '@tanstack/react-router';
import { AffiliatePage } from '../features/affiliate/index.ts';

export const Route = createFileRoute('/affiliate/')({ component: AffiliatePage });
