import { FitAddon } from '@xterm/addon-fit';
import { Terminal, type ITerminalOptions } from '@xterm/xterm';
import type { TerminalScreen } from './terminal-socket.ts';

/** Before the tab has measured itself. */
const START_SIZE = { cols: 80, rows: 24 };

/**
 * A user terminal's screen for its socket, which outlives any one xterm: React may draw the
 * tab again (StrictMode, a window docked back). Output that arrives between two xterms waits
 * for the next; keys and sizes go to the listeners set with `listen`.
 */
export class XtermScreen implements TerminalScreen {
  private terminal: Terminal | null = null;
  private pending = '';
  private listeners: { input(data: string): void; resize(cols: number, rows: number): void } | null = null;

  write(data: string): void {
    if (this.terminal) this.terminal.write(data);
    else this.pending += data;
  }

  size(): { cols: number; rows: number } {
    return this.terminal ? { cols: this.terminal.cols, rows: this.terminal.rows } : START_SIZE;
  }

  listen(listeners: XtermScreen['listeners']): void {
    this.listeners = listeners;
  }

  /** Draws into `element`, fitted to it whenever it has a size; answers the way to let go. */
  open(element: HTMLElement, options: ITerminalOptions): () => void {
    const terminal = new Terminal(options);
    const fit = new FitAddon();
    terminal.loadAddon(fit);
    terminal.open(element);
    const fitted = () => {
      if (element.offsetWidth > 0 && element.offsetHeight > 0) fit.fit();
    };
    fitted();
    const resize = new ResizeObserver(fitted);
    resize.observe(element);
    const typing = terminal.onData((data) => this.listeners?.input(data));
    const sizing = terminal.onResize(({ cols, rows }) => this.listeners?.resize(cols, rows));
    this.terminal = terminal;
    terminal.write(this.pending);
    this.pending = '';
    return () => {
      resize.disconnect();
      typing.dispose();
      sizing.dispose();
      if (this.terminal === terminal) this.terminal = null;
      terminal.dispose();
    };
  }

  focus(): void {
    this.terminal?.focus();
  }
}
