export { MicroagentManagementPage } from './MicroagentManagementPage.tsx';
