export { DeploymentsDialog } from './DeploymentsDialog.tsx';
