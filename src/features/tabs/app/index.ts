export { AppTab } from './AppTab.tsx';
