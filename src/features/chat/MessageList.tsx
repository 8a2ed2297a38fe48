import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type UIEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import type { PendingMessage } from '../../../machines/chat-input.ts';
import type { LaunchTask } from '../../../machines/microagent-launch.ts';
import type { ConversationStream, StreamSnapshot } from '../../realtime/types.ts';
import { Button } from '../../ui/index.ts';
import * as styles from './chat.css.ts';
import { EventRow, RowTextProvider, type EventRowProps, type RowFork } from './EventRow.tsx';
import { createReaderInput } from './reader-input.ts';
import type { ForkControls } from './use-fork.ts';
import {
  createRowsSelector,
  isAtBottom,
  isUserRow,
  lastAgentRowId,
  LOAD_OLDER_THRESHOLD_PX,
  rowKey,
  type ChatRow,
} from './rules/chat-rows.ts';
import { useStreamSelector } from '../../realtime/use-stream-selector.ts';

export interface MessageListProps {
  stream: ConversationStream;
  pending: readonly PendingMessage[];
  awaitingConfirmation: boolean;
  onConfirm: () => void;
  onReject: () => void;
  feedbackEnabled: boolean;
  /** Launching a microagent from agent rows, with each row's launch task; null when the conversation cannot. */
  memory: { onRemember: (eventId: number) => void; tasks: readonly LaunchTask[] } | null;
  /** Forks from a row (and edit and retry). */
  fork: ForkControls;
}

// A guess on the tall side: rows guessed too short are rendered, measured and dropped again in
// numbers while the list settles at its end.
const ESTIMATED_ROW_PX = 120;

const pendingRows = new WeakMap<PendingMessage, ChatRow>();
function pendingRow(message: PendingMessage): ChatRow {
  let row = pendingRows.get(message);
  if (!row) {
    row = { kind: 'pending', id: message.id, message };
    pendingRows.set(message, row);
  }
  return row;
}

const selectHasOlder = (snapshot: StreamSnapshot) => snapshot.hasOlder;
const selectLoadingOlder = (snapshot: StreamSnapshot) => snapshot.loadingOlder;

/** Whether the element sits under other ancestors than when last asked (`last` keeps them). */
function moved(element: Element, last: { current: Element[] }): boolean {
  const ancestors: Element[] = [];
  for (let parent = element.parentElement; parent; parent = parent.parentElement) ancestors.push(parent);
  const same = ancestors.length === last.current.length && ancestors.every((parent, i) => parent === last.current[i]);
  last.current = ancestors;
  return !same && ancestors.length > 0;
}

/**
 * The virtualised list of the conversation: follows new rows while the reader is at the bottom
 * (within 20 px), stops when they scroll up, and loads older pages when they reach the top.
 */
export function MessageList({
  stream,
  pending,
  awaitingConfirmation,
  onConfirm,
  onReject,
  feedbackEnabled,
  memory,
  fork,
}: MessageListProps) {
  const { t } = useTranslation('chat');
  const [selectRows] = useState(createRowsSelector);
  const eventRows = useStreamSelector(stream, selectRows);
  const hasOlder = useStreamSelector(stream, selectHasOlder);
  const loadingOlder = useStreamSelector(stream, selectLoadingOlder);
  const rows = useMemo(
    () => (pending.length === 0 ? eventRows : [...eventRows, ...pending.map(pendingRow)]),
    [eventRows, pending],
  );
  const confirmRowId = awaitingConfirmation ? lastAgentRowId(rows) : null;
  const confirmation = useMemo(() => ({ onConfirm, onReject }), [onConfirm, onReject]);
  const feedback = useMemo(() => (feedbackEnabled ? { stream } : null), [feedbackEnabled, stream]);
  // One object per row that keeps its identity while nothing of it changes (the rows are memoised).
  const memoryOf = useMemo(() => {
    if (!memory) return null;
    const { onRemember } = memory;
    const plain = { onRemember, task: null };
    const withTask = new Map(memory.tasks.map((task) => [task.eventId, { onRemember, task }]));
    return (eventId: number) => withTask.get(eventId) ?? plain;
  }, [memory]);

  // Every row gets the same object but the one being edited, which also carries the edit form.
  const { send, editing, busy } = fork;
  const rowFork = useMemo(() => {
    const plain: RowFork = {
      onFork: (eventId) => send({ type: 'FORK', eventId }),
      onEdit: (eventId, text) => send({ type: 'EDIT', eventId, text }),
      busy,
      edit: null,
    };
    if (!editing) return () => plain;
    const edited: RowFork = {
      ...plain,
      edit: {
        draft: editing.draft,
        onChange: (text) => send({ type: 'CHANGE', text }),
        onSend: () => send({ type: 'SEND' }),
        onCancel: () => send({ type: 'CANCEL' }),
      },
    };
    return (eventId: number) => (eventId === editing.eventId ? edited : plain);
  }, [send, busy, editing]);

  const scrollRef = useRef<HTMLDivElement>(null);
  const [following, setFollowing] = useState(true);
  // Only the reader scrolling up stops following. The virtualiser and the browser move the
  // position too, upward at times while rows are measured, and on a slow machine such a scroll
  // event can see the position moved before the list's new height: it is not the reader's.
  const [reader] = useState(createReaderInput);
  // The list opens at its end; older rows put in front leave what the reader sees where it is
  // (anchored to the end), and rows measured above the view do not move it either. (The warning
  // concerns the React Compiler, which this project does not use.)
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    getItemKey: (index) => rowKey(rows[index] as ChatRow),
    overscan: 3,
    anchorTo: 'end',
    initialOffset: () => rows.length * ESTIMATED_ROW_PX,
  });
  const scrollToEnd = useCallback(() => virtual.scrollToEnd(), [virtual]);
  // Back to the end and following it, at the user's word: the scrolls that follow are the list's.
  const followAgain = useCallback(() => {
    reader.forget();
    setFollowing(true);
    scrollToEnd();
  }, [reader, scrollToEnd]);

  // Following from within the tolerance above the end, the list's changes bring it to the end.
  const totalSize = virtual.getTotalSize();
  const viewportHeight = virtual.scrollRect?.height ?? 0;
  useLayoutEffect(() => {
    if (following) scrollToEnd();
  }, [following, scrollToEnd, totalSize]);

  // The user's own new message (sent, or an upload's) brings the list back to its end, wherever they
  // had scrolled; it is watched wherever it is, as the agent's answer may come in the same batch.
  const lastUserKey = useMemo(() => {
    const last = rows.findLast(isUserRow);
    return last ? rowKey(last) : null;
  }, [rows]);
  const seenUserKey = useRef(lastUserKey);
  useLayoutEffect(() => {
    if (lastUserKey === null || lastUserKey === seenUserKey.current) return;
    seenUserKey.current = lastUserKey;
    followAgain();
  }, [lastUserKey, followAgain]);

  const loadOlder = useCallback(() => {
    if (hasOlder && !loadingOlder) void stream.loadOlder();
  }, [hasOlder, loadingOlder, stream]);

  // A first page too short to scroll cannot reach the top by scrolling: ask for more at once
  // (checked again once the rows are measured, as the guessed heights may have hidden it).
  // Asked of the virtualiser, not of the element: reading its height would force a layout in every commit.
  useEffect(() => {
    if (viewportHeight > 0 && totalSize <= viewportHeight) loadOlder();
  }, [viewportHeight, totalSize, loadOlder]);

  const lastScrollTop = useRef(0);
  // A moved element forgets its scroll position (the chat moves from the first frame into its
  // tile, and into popout windows), and the browser may report that as a scroll to the top.
  const lastPlace = useRef<Element[]>([]);
  const onScroll = (event: UIEvent) => {
    const element = scrollRef.current;
    // Moving into another tile or window, the list is detached or not laid out for a moment: its
    // scroll position then says nothing about the reader.
    if (!element || element.clientHeight === 0) return;
    if (moved(element, lastPlace)) {
      placeAgain(element);
      return;
    }
    const movedUp = element.scrollTop < lastScrollTop.current - 1;
    lastScrollTop.current = element.scrollTop;
    if (isAtBottom(element)) setFollowing(true);
    else if (movedUp && reader.byReader(event)) setFollowing(false);
    if (element.scrollTop < LOAD_OLDER_THRESHOLD_PX) loadOlder();
  };

  // A detached element forgets its scroll position (the chat moves from the first frame into its
  // tile, and into popout windows): once laid out again, the list goes back to its end when it
  // follows it, else to where the reader was. When the list's height changes (the panel below it
  // grows or shrinks), what the reader sees keeps its distance from the list's bottom.
  const place = useRef({ following, scrollToEnd });
  useLayoutEffect(() => {
    place.current = { following, scrollToEnd };
  });
  const lastHeight = useRef(0);
  const placeAgain = (element: HTMLElement) => {
    const grown = lastHeight.current === 0 ? 0 : element.clientHeight - lastHeight.current;
    lastHeight.current = element.clientHeight;
    if (place.current.following) place.current.scrollToEnd();
    else if (element.scrollTop !== lastScrollTop.current - grown) element.scrollTop = lastScrollTop.current - grown;
  };
  useEffect(() => {
    const element = scrollRef.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (element.clientHeight === 0) return;
      moved(element, lastPlace);
      placeAgain(element);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  return (
    <>
      <div
        ref={scrollRef}
        className={styles.scroller}
        onScroll={onScroll}
        {...reader.handlers}
        role="log"
        aria-label={t('panel.messages')}
        tabIndex={0}
      >
        {/* Over the top of the rows: it takes no room from them, which would move what the reader sees. */}
        {loadingOlder && (
          <div className={styles.loadingOlder}>
            <p className={styles.loadingOlderNote} role="status">
              {t('panel.loadingOlder')}
            </p>
          </div>
        )}
        {rows.length > 0 && (
          <RowTextProvider value={t}>
            <div className={styles.virtualBody} style={{ height: totalSize }}>
              {virtual.getVirtualItems().map((item) => {
                const row = rows[item.index] as ChatRow;
                const props: EventRowProps = {
                  row,
                  confirmation: row.kind !== 'pending' && row.id === confirmRowId ? confirmation : null,
                  feedback,
                  memory: row.kind === 'pending' ? null : (memoryOf?.(row.id) ?? null),
                  fork: row.kind === 'pending' ? null : rowFork(row.id),
                };
                return (
                  <div
                    key={item.key}
                    data-index={item.index}
                    ref={virtual.measureElement}
                    className={styles.virtualRow}
                    style={{ transform: `translateY(${item.start}px)` }}
                  >
                    <EventRow {...props} />
                  </div>
                );
              })}
            </div>
          </RowTextProvider>
        )}
        {rows.length === 0 && !loadingOlder && <p className={styles.centred}>{t('panel.empty')}</p>}
      </div>
      {!following && (
        <Button className={styles.scrollToBottom} size="sm" tone="secondary" onClick={followAgain}>
          {t('actions.scrollToBottom')}
        </Button>
      )}
    </>
  );
}
