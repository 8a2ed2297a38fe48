import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Dialog } from './Dialog.tsx';

afterEach(cleanup);

describe('a dialog whose code loads when it first opens', () => {
  it('renders nothing while closed, then the labelled dialog, whose close button closes it', async () => {
    const onOpenChange = vi.fn();
    const props = {
      onOpenChange,
      title: 'Rename',
      description: 'Give it a new name',
      closeLabel: 'Close',
      children: <p>Body</p>,
    };
    const { rerender } = render(<Dialog open={false} {...props} />);
    expect(document.body.textContent).toBe('');

    rerender(<Dialog open {...props} />);
    await import('./ModalDialog.tsx'); // the code the dialog has started to load (the first import is slow under test)
    const dialog = await screen.findByRole('dialog', { name: 'Rename' });
    expect(dialog.textContent).toContain('Body');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });
});
