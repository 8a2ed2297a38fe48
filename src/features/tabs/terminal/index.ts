export { TerminalTab } from './TerminalTab.tsx';
