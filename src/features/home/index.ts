export { DashboardPage } from './DashboardPage.tsx';
export { repositoryRequests } from './repositories.ts';
