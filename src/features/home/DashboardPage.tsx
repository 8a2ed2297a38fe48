import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { Suspense, useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { GIT_PROVIDERS } from '../../api/git-providers.ts';
import { useClientConfig, useCurrentUser, useSettings } from '../../app/hooks.ts';
import { keepHomeDraft, readHomeDraft } from '../../app/local-data.ts';
import { SessionContext } from '../../app/session.ts';
import { Button, Spinner, lazyRetrying } from '../../ui/index.ts';
import { conversationRequests } from '../conversations/index.ts';
import * as styles from './home.css.ts';
import { RepositoryChooser, type RepositoryChoice } from './RepositoryChooser.tsx';
import { homeEnterIntent, promptText, workspaceLocation } from './prompt.ts';

// The model form loads with the modal, when it first opens, not with this page.
const AiSettingsModal = lazyRetrying(() =>
  import('../settings/index.ts').then((settings) => ({ default: settings.AiSettingsModal })),
);

const QUICK_STARTS = ['scratch', 'existing'] as const;

/**
 * The application home: a prompt that starts a conversation. A quick start fills the box with
 * a prompt the user can adjust before sending; anonymous visitors get the sign-in dialog.
 */
export function DashboardPage() {
  const { t } = useTranslation(['common', 'home']);
  const navigate = useNavigate();
  const session = SessionContext.useActorRef();
  const signedIn = useCurrentUser() !== null;
  // The draft survives reloads, and signing in, up and onboarding (sent then if Send was pressed before).
  const [text, setTextState] = useState(() => readHomeDraft()?.text ?? '');
  const setText = (next: string) => {
    setTextState(next);
    keepHomeDraft({ text: next, send: false });
  };
  const config = useClientConfig();
  const settings = useSettings();
  const ossMode = config?.APP_MODE === 'oss';
  // oss: with no saved settings (404) and no operator model, the AI settings modal opens (spec §6).
  const modelMissing = ossMode && config.OPERATOR_MODEL === null && settings.isSuccess && settings.data === null;
  const [modal, setModal] = useState<'auto' | 'open' | 'closed'>('auto');
  const modalOpen = modal === 'open' || (modal === 'auto' && modelMissing);
  const box = useRef<HTMLTextAreaElement>(null);
  const [choice, setChoice] = useState<RepositoryChoice | null>(null);
  const connected = GIT_PROVIDERS.filter((provider) => settings.data?.provider_tokens_set[provider]);
  const create = useMutation({
    mutationFn: (prompt: string | null) =>
      conversationRequests
        .create(
          choice
            ? { repository: choice.repository, git_provider: choice.provider, selected_branch: choice.branch }
            : {},
        )
        .then((created) => ({ created, prompt })),
    onSuccess: ({ created, prompt }) => {
      keepHomeDraft(null);
      void navigate(workspaceLocation(created.conversation_id, prompt));
    },
  });

  const submit = () => {
    const prompt = promptText(text);
    if (prompt === null || create.isPending) return;
    if (signedIn) return create.mutate(prompt);
    keepHomeDraft({ text, send: true });
    session.send({ type: 'OPEN_SIGN_IN' });
  };
  // Signed in (here, or back from sign-up, onboarding or verification): a prompt whose Send waited goes now.
  useEffect(() => {
    const draft = readHomeDraft();
    if (!signedIn || !draft?.send) return;
    keepHomeDraft({ text: draft.text, send: false });
    const prompt = promptText(draft.text);
    if (prompt !== null) create.mutate(prompt);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per sign-in; the mutation object changes each render
  }, [signedIn]);
  // Launch: the picked repository's conversation, with the prompt when one is typed.
  const launch = () => {
    if (choice && !create.isPending) create.mutate(promptText(text));
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (
      homeEnterIntent({
        key: event.key,
        shiftKey: event.shiftKey,
        isComposing: event.nativeEvent.isComposing,
        keyCode: event.keyCode,
      }) !== 'send'
    )
      return;
    event.preventDefault();
    submit();
  };
  const quickStart = (kind: (typeof QUICK_STARTS)[number]) => {
    setText(t(`home:quickStartPrompt.${kind}`));
    box.current?.focus();
  };

  return (
    <div className={styles.home}>
      <h1 className={styles.heading}>{t('dashboard.heading')}</h1>
      {!signedIn && config?.APP_MODE === 'saas' ? (
        <p className={styles.invitation}>
          {t('home:chatOnboarding.text')} <Link to="/onboarding">{t('home:chatOnboarding.link')}</Link>
        </p>
      ) : null}
      <form className={styles.prompt} onSubmit={onSubmit}>
        <textarea
          ref={box}
          className={styles.box}
          aria-label={t('home:messageLabel')}
          placeholder={t('home:placeholder')}
          value={text}
          rows={3}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          disabled={create.isPending}
        />
        <div className={styles.actions}>
          {create.isPending ? <Spinner label={t('home:creating')} /> : null}
          <Button type="submit" disabled={promptText(text) === null || create.isPending}>
            {t('home:send')}
          </Button>
        </div>
      </form>
      {signedIn && connected.length > 0 ? (
        <RepositoryChooser providers={connected} onChoice={setChoice}>
          <Button disabled={!choice || create.isPending} onClick={launch}>
            {t('home:repository.launch')}
          </Button>
        </RepositoryChooser>
      ) : null}
      <div className={styles.quickStarts} role="group" aria-label={t('home:quickStarts')}>
        {QUICK_STARTS.map((kind) => (
          <Button key={kind} tone="secondary" onClick={() => quickStart(kind)}>
            {t(`home:quickStart.${kind}`)}
          </Button>
        ))}
      </div>
      {ossMode ? (
        <Button tone="link" onClick={() => setModal('open')}>
          {t('aiSettings.open')}
        </Button>
      ) : null}
      {modalOpen ? (
        <Suspense fallback={null}>
          <AiSettingsModal open onClose={() => setModal('closed')} />
        </Suspense>
      ) : null}
      <footer className={styles.footer}>
        <nav aria-label={t('home:footer.label')} className={styles.footerLinks}>
          <Link to="/terms">{t('home:footer.terms')}</Link>
          <Link to="/privacy">{t('home:footer.privacy')}</Link>
        </nav>
      </footer>
    </div>
  );
}
