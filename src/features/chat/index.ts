export { ChatPanel } from './ChatPanel.tsx';
