import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { toast, Toaster } from './toast.tsx';

afterEach(cleanup);

describe('toasts', () => {
  it('render nothing until the first toast, then show it and the later ones in the notifications region', async () => {
    const { container } = render(<Toaster containerAriaLabel="Notifications" />);
    expect(container.innerHTML).toBe('');

    act(() => toast.error('Could not save'));
    const region = await screen.findByRole('region', { name: /Notifications/ });
    expect(region.getAttribute('aria-live')).toBe('polite');
    await screen.findByText('Could not save');

    act(() => toast.success('Saved'));
    await screen.findByText('Saved');
  });
});
