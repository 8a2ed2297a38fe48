import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Markdown } from './Markdown.tsx';

afterEach(cleanup);

describe('a message as markdown', () => {
  it('shows the plain text at once, the rendered markdown once the renderer has loaded, and then renders at once', async () => {
    const first = render(<Markdown text={'**bold**\nnext line'} />);
    expect(first.container.textContent).toBe('**bold**\nnext line');

    await import('./markdown.ts'); // the renderer the message has started to load (the first import is slow under test)
    await screen.findByText('bold', { selector: 'strong' });
    expect(first.container.innerHTML).toContain('<br>');
    first.unmount();

    const second = render(<Markdown text="`code`" />);
    expect(second.container.querySelector('code')?.textContent).toBe('code');
  });
});
