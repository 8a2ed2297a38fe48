export { ChangesTab } from './ChangesTab.tsx';
