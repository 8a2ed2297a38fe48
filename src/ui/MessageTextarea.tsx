import type { ComponentProps } from 'react';
import { messageTextarea } from './message-input.css.ts';

type MessageTextareaProps = Omit<ComponentProps<'textarea'>, 'className' | 'onKeyDown' | 'rows'> & {
  /** Enter was pressed: answers whether that sent the message (then no new line is typed). */
  onEnter: (key: { shiftKey: boolean; isComposing: boolean }) => boolean;
};

/** A message box (the DevOps tab's, the onboarding chat's): grows with its text up to 6 rows. */
export function MessageTextarea({ onEnter, ...props }: MessageTextareaProps) {
  return (
    <textarea
      className={messageTextarea}
      rows={1}
      {...props}
      onKeyDown={(event) => {
        if (event.key === 'Enter' && onEnter({ shiftKey: event.shiftKey, isComposing: event.nativeEvent.isComposing }))
          event.preventDefault();
      }}
    />
  );
}
