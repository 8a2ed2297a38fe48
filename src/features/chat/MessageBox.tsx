import { useSelector } from '@xstate/react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { money } from '../../rules/usd.ts';
import { selectSendDisabled, selectShowStop } from '../../../machines/agent.ts';
import {
  enterKeyIntent,
  selectCanSend,
  selectImages,
  selectBalance,
  selectInsufficientCredits,
  selectText,
} from '../../../machines/chat-input.ts';
import { selectIsUploading, selectProgress, selectUploadError } from '../../../machines/upload.ts';
import { Button } from '../../ui/index.ts';
import { messageTextarea } from '../../ui/message-input.css.ts';
import * as styles from './chat.css.ts';
import { useChatActors, type ChatActors } from './use-chat-actors.ts';

const now = () => new Date().toISOString();

/** The upload's progress banner, or its 'Error: …' until dismissed. */
function UploadStatus({ upload }: { upload: ChatActors['upload'] }) {
  const { t } = useTranslation('chat');
  const uploading = useSelector(upload, selectIsUploading);
  const progress = useSelector(upload, selectProgress);
  const error = useSelector(upload, selectUploadError);
  if (uploading) {
    const percent = Math.round((progress ?? 0) * 100);
    return (
      <div className={styles.banner} role="status">
        <span>{t('upload.progress', { percent })}</span>
        <progress
          className={styles.progressBar}
          max={100}
          value={percent}
          aria-label={t('upload.progress', { percent })}
        />
      </div>
    );
  }
  if (error === null) return null;
  const message =
    error.key === 'upload.failed' || error.key === 'upload.noFiles' ? t(error.key) : t(error.key, error.params);
  return (
    <div className={styles.dangerBanner} role="alert">
      <span>{t('upload.error', { message })}</span>
      <Button size="sm" tone="ghost" onClick={() => upload.send({ type: 'DISMISS' })}>
        {t('actions.dismiss')}
      </Button>
    </div>
  );
}

/** The message box: Enter sends, Shift+Enter adds a line, Enter while composing (IME) does nothing; up to 6 rows. */
export function MessageBox() {
  const { t, i18n } = useTranslation('chat');
  const { agent, chatInput, upload } = useChatActors();
  const balance = useSelector(chatInput, selectBalance);
  const text = useSelector(chatInput, selectText);
  const images = useSelector(chatInput, selectImages);
  const canSend = useSelector(chatInput, selectCanSend);
  const insufficient = useSelector(chatInput, selectInsufficientCredits);
  const sendDisabled = useSelector(agent, selectSendDisabled);
  const showStop = useSelector(agent, selectShowStop);
  const fileInput = useRef<HTMLInputElement>(null);

  return (
    <>
      <UploadStatus upload={upload} />
      {insufficient && (
        <div className={styles.dangerBanner} role="alert">
          {t('input.insufficientCreditsBanner', { balance: money.total(balance ?? 0, i18n.language) })}
        </div>
      )}
      {images.length > 0 && (
        <div className={styles.images}>
          {images.map((image) => (
            <Button
              key={image.url}
              size="sm"
              tone="secondary"
              onClick={() => chatInput.send({ type: 'IMAGE_REMOVED', url: image.url })}
              aria-label={t('actions.removeImage', { name: image.name })}
            >
              <img src={image.url} alt="" className={styles.thumbnail} />
            </Button>
          ))}
        </div>
      )}
      <form
        className={styles.inputRow}
        onSubmit={(event) => {
          event.preventDefault();
          chatInput.send({ type: 'SUBMIT', at: now() });
        }}
      >
        <input
          ref={fileInput}
          type="file"
          multiple
          className={styles.hiddenInput}
          tabIndex={-1}
          aria-hidden="true"
          onChange={(event) => {
            upload.send({ type: 'SELECT_FILES', files: [...(event.target.files ?? [])] });
            event.target.value = '';
          }}
        />
        <Button
          tone="ghost"
          className={styles.fixedButton}
          onClick={() => fileInput.current?.click()}
          aria-label={t('actions.attachFiles')}
        >
          <svg
            width="18"
            height="18"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
            aria-hidden="true"
          >
            <path d="M21.44 11.05l-9.19 9.19a6 6 0 0 1-8.49-8.49l9.19-9.19a4 4 0 0 1 5.66 5.66l-9.2 9.19a2 2 0 0 1-2.83-2.83l8.49-8.48" />
          </svg>
        </Button>
        <textarea
          className={messageTextarea}
          rows={1}
          value={text}
          aria-label={t('actions.messageLabel')}
          placeholder={t('actions.placeholder')}
          onChange={(event) => chatInput.send({ type: 'TEXT_CHANGED', text: event.target.value })}
          onCompositionStart={() => chatInput.send({ type: 'COMPOSITION_START' })}
          onCompositionEnd={() => chatInput.send({ type: 'COMPOSITION_END' })}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            const key = { shiftKey: event.shiftKey, isComposing: event.nativeEvent.isComposing };
            if (enterKeyIntent(key) === 'send') event.preventDefault();
            chatInput.send({ type: 'KEY_ENTER', ...key, at: now() });
          }}
        />
        {showStop ? (
          <Button tone="secondary" className={styles.fixedButton} onClick={() => agent.send({ type: 'STOP' })}>
            {t('agent.stop')}
          </Button>
        ) : (
          <Button type="submit" className={styles.fixedButton} disabled={!canSend || sendDisabled}>
            {t('input.send')}
          </Button>
        )}
      </form>
    </>
  );
}
