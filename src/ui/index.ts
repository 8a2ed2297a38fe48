// Checkbox is imported from './Checkbox.tsx' by the forms that use one: exported here, its styles
// (a side effect) would bring Radix's checkbox into every page's first download.
export { Avatar } from './Avatar.tsx';
export { Banner } from './Banner.tsx';
export { Button } from './Button.tsx';
export { ConfirmDialog } from './ConfirmDialog.tsx';
export { Dialog } from './Dialog.tsx';
export { HeaderSlot, HeaderSlotProvider, InHeader } from './HeaderSlot.tsx';
export {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuSub,
  DropdownMenuSubContent,
  DropdownMenuSubTrigger,
  DropdownMenuTrigger,
} from './DropdownMenu.tsx';
export { Markdown } from './Markdown.tsx';
export { MessageTextarea } from './MessageTextarea.tsx';
export { SelectField } from './SelectField.tsx';
export { ProviderIcon } from './ProviderIcon.tsx';
export { PageSpinner, Spinner } from './Spinner.tsx';
export { TextField } from './TextField.tsx';
export { toast, Toaster } from './toast.tsx';
export { NARROW_SCREEN, useNarrowScreen } from './use-narrow-screen.ts';
export { reloadFailedLinks, lazyRetrying, loadRetrying } from './load-retrying.ts';
