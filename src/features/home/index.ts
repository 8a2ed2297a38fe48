export { DashboardPage } from './DashboardPage.tsx';
