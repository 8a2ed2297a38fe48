import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Menu from './DropdownMenu.tsx';

// A fresh copy of the module per test: each starts before the menu code has loaded.
let menu: typeof Menu;
beforeEach(async () => {
  vi.resetModules();
  menu = await import('./DropdownMenu.tsx');
});
afterEach(cleanup);

/** Waits for the menu code the component has started to load (the first import is slow under test). */
const menuCodeLoaded = () => import('./RadixDropdownMenu.tsx');

function renderMenu(onRename: () => void) {
  const { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } = menu;
  return render(
    <DropdownMenu>
      <DropdownMenuTrigger>
        <button type="button">Actions</button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuItem onSelect={onRename}>Rename</DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>,
  );
}

describe('a dropdown menu whose code loads after the first paint', () => {
  it('opens from a trigger pressed before the code has arrived, once it has', async () => {
    const onRename = vi.fn();
    renderMenu(onRename);
    const trigger = screen.getByRole('button', { name: 'Actions' });
    expect(trigger.getAttribute('aria-haspopup')).toBe('menu');
    expect(screen.queryByRole('menu')).toBeNull();

    fireEvent.keyDown(trigger, { key: 'Enter' });
    await menuCodeLoaded();
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Rename' }));
    expect(onRename).toHaveBeenCalledOnce();
  });

  it('gives the real trigger the focus the stand-in had', async () => {
    renderMenu(() => {});
    screen.getByRole('button', { name: 'Actions' }).focus();
    await menuCodeLoaded();
    // Radix's trigger controls the menu by id; the stand-in has none.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Actions' }).id).not.toBe(''));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Actions' }));
  });
});
