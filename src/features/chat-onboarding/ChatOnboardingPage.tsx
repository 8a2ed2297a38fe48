import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import i18next from 'i18next';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import {
  chatOnboardingMachine,
  formOf,
  selectCanAct,
  selectFailedToOpen,
  selectIsLoadingMessages,
  selectIsOpening,
  selectIsTyping,
  selectSubmitting,
  type ChatForm,
  type ChatOnboardingNotice,
  type OnboardingChat,
} from '../../../machines/chat-onboarding.ts';
import type { ConnectionNotice } from '../../../machines/connection.ts';
import { enterKeyIntent } from '../../../machines/chat-input.ts';
import { validateFiles, type UploadError } from '../../../machines/upload.ts';
import { choicesOf, LETS_GO, withoutChoices } from '../../../openapi/chat-onboarding.ts';
import { storedAffiliateCode } from '../../app/local-data.ts';
import { queryClient, requests } from '../../app/services.ts';
import { useCurrentUser } from '../../app/hooks.ts';
import { SessionContext, type SessionActor } from '../../app/session.ts';
import { EmailVerificationBanner } from '../auth/index.ts';
import type { LiveConversationStream } from '../../realtime/conversation-stream.ts';
import { currentUserQuery, queryKeys } from '../../api/queries.ts';
import { useStreamSelector } from '../../realtime/use-stream-selector.ts';
import type { StreamSnapshot } from '../../realtime/types.ts';
import { visuallyHidden } from '../../styles/visually-hidden.css.ts';
import { Button, Markdown, MessageTextarea, PageSpinner, TextField } from '../../ui/index.ts';
import * as bubbles from '../../ui/message-bubble.css.ts';
import * as styles from './chat-onboarding.css.ts';
import { chatSocketActor } from './chat-socket.ts';
import { keepChat, keptChat } from './chat-token.ts';
import { chatOnboardingRequests } from './requests.ts';
import type { Event } from '../../../openapi/types.ts';

export interface ChatOnboardingPageProps {
  /** The url's chat (query `conversation`), reopened with the token this tab kept. */
  chatId: string | null;
  /** Puts the chat's id in the url. */
  showChat: (chatId: string) => void;
  /** Opens the upgraded conversation's workspace. */
  openConversation: (conversationId: string) => void;
}

/** The chat's messages: what the visitor wrote and what the agent said. */
const selectMessages = (snapshot: StreamSnapshot) => snapshot.events;
const isMessage = (event: Event) => event.action === 'message' && (event.source === 'user' || event.source === 'agent');
const textOf = (event: Event) => String(event.args?.content ?? event.message ?? '');

let opening: Promise<OnboardingChat> | null = null;

/** The page's machine with its side effects: the chat's calls, its socket, the session's sign-in. */
function chatOnboardingLogic(
  session: SessionActor,
  page: Pick<ChatOnboardingPageProps, 'showChat' | 'openConversation'>,
  onStream: (stream: LiveConversationStream | null) => void,
) {
  /** Signs in with the new or existing account (the session keeps the token), then binds the chat. */
  const signInAndClaim = async (chat: OnboardingChat, email: string, password: string) => {
    const { access_token: token } = await requests.logIn({ email, password, remember_me: true });
    session.send({ type: 'SIGNED_IN', obtained: { token, rememberMe: true } });
    await chatOnboardingRequests.claim(chat);
    return { language: i18next.language };
  };
  return chatOnboardingMachine.provide({
    actors: {
      openChat: fromPromise(({ input }) => {
        const kept = keptChat(input.chatId);
        if (kept) return Promise.resolve(kept);
        // One new chat however often the page mounts while it is being opened.
        opening ??= chatOnboardingRequests
          .open()
          .then((opened) => {
            const chat = { id: opened.chat_id, token: opened.chat_token };
            keepChat(chat);
            return chat;
          })
          .finally(() => (opening = null));
        return opening;
      }),
      chatSocket: chatSocketActor({
        onStream,
        describe: (notice: ConnectionNotice) =>
          notice.kind === 'server' ? notice.text : i18next.t(`workspace:connection.${notice.message}`),
        reloadPage: () => window.location.reload(),
      }),
      signUp: fromPromise(async ({ input: { chat, details } }) => {
        const registration = { ...details, affiliate_code: storedAffiliateCode() };
        // A free-mail address is a personal account: the chat does not stop to ask.
        let created = await requests.register({ ...registration, is_personal: false });
        if (created.personal_email_detected) created = await requests.register({ ...registration, is_personal: true });
        if (created.id === null) throw new Error('The account was not created');
        return signInAndClaim(chat, details.email, details.password);
      }),
      logIn: fromPromise(({ input: { chat, details } }) => signInAndClaim(chat, details.email, details.password)),
      uploadFiles: fromPromise(({ input }) => chatOnboardingRequests.upload(input.chat, input.files)),
    },
    actions: {
      rememberChat: (_, chat) => page.showChat(chat.id),
      // The account may have been activated elsewhere since this page signed in: the workspace
      // must see it as it is now, not as the session loaded it.
      openConversation: (_, conversationId) =>
        void queryClient
          .refetchQueries({ queryKey: queryKeys.currentUser })
          .finally(() => page.openConversation(conversationId)),
    },
  });
}

/**
 * /onboarding (spec §4): a visitor's chat with the onboarding agent, with the inline forms the
 * agent's latest message asks for. The machine (machines/chat-onboarding.ts) decides; this view
 * selects and sends.
 */
export function ChatOnboardingPage({ chatId, showChat, openConversation }: ChatOnboardingPageProps) {
  const { t } = useTranslation('chatOnboarding');
  const session = SessionContext.useActorRef();
  const [stream, setStream] = useState<LiveConversationStream | null>(null);
  const chatActor = useActorRef(chatOnboardingLogic(session, { showChat, openConversation }, setStream), {
    input: { chatId },
  });
  const opening = useSelector(chatActor, selectIsOpening);
  const failed = useSelector(chatActor, selectFailedToOpen);
  const notice = useSelector(chatActor, (snapshot) => snapshot.context.notice);

  return (
    <section className={styles.page} aria-labelledby="chat-onboarding-title">
      <h1 id="chat-onboarding-title" className={styles.title}>
        {t('title')}
      </h1>
      {opening ? <PageSpinner label={t('opening')} /> : null}
      {failed ? (
        <p role="alert" className={styles.notice}>
          {t('errors.initFailed')}
        </p>
      ) : null}
      {stream ? <Chat stream={stream} chat={chatActor} /> : null}
      {notice && !failed ? (
        <div role="alert" className={styles.notice}>
          <span>{noticeText(notice, t)}</span>
          <Button tone="ghost" size="sm" onClick={() => chatActor.send({ type: 'DISMISS_NOTICE' })}>
            {t('dismiss')}
          </Button>
        </div>
      ) : null}
    </section>
  );
}

type ChatActor = ReturnType<typeof useActorRef<typeof chatOnboardingMachine>>;
type T = ReturnType<typeof useTranslation<'chatOnboarding'>>['t'];

function noticeText(notice: ChatOnboardingNotice, t: T): string {
  return notice.kind === 'server' ? notice.text : t(`errors.${notice.message}`);
}

function Chat({ stream, chat }: { stream: LiveConversationStream; chat: ChatActor }) {
  const { t } = useTranslation('chatOnboarding');
  const events = useStreamSelector(stream, selectMessages);
  const typing = useSelector(chat, selectIsTyping);
  const loading = useSelector(chat, selectIsLoadingMessages);
  const canAct = useSelector(chat, selectCanAct);
  const submitting = useSelector(chat, selectSubmitting);
  const chatId = useSelector(chat, (snapshot) => snapshot.context.chat?.id ?? '');
  const messages = events.filter(isMessage);
  const lastAgent = messages.findLast((event) => event.source === 'agent') ?? null;
  // The agent's latest message, unanswered, asks for its form.
  const form = lastAgent && messages.at(-1) === lastAgent ? formOf(textOf(lastAgent)) : null;
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Braces: Chromium's scrollIntoView may answer a promise, which an effect must not return.
    void end.current?.scrollIntoView?.({ block: 'end' });
  }, [messages.length, typing, form]);

  return (
    <>
      <div className={styles.messages} role="log" aria-label={t('messages')} aria-busy={loading} tabIndex={0}>
        {messages.map((event) => (
          <MessageView
            key={event.id}
            event={event}
            // Choices are buttons, enabled only on the latest agent message.
            choicesEnabled={event === lastAgent && canAct && !loading}
            choose={(choice) => chat.send({ type: 'SEND', text: choice })}
          />
        ))}
        {form && (canAct || submitting === form) ? (
          <FormPanel form={form} chat={chat} busy={submitting === form} />
        ) : null}
        {lastAgent && messages.at(-1) === lastAgent && choicesOf(textOf(lastAgent)).includes(LETS_GO) ? (
          <HandOff chatId={chatId} />
        ) : null}
        {typing ? (
          <p role="status" className={styles.status}>
            {t('typing')}
          </p>
        ) : null}
        <div ref={end} />
      </div>
      <MessageInput disabled={!canAct} send={(text) => chat.send({ type: 'SEND', text })} />
    </>
  );
}

/**
 * Before Let's go! can open a workspace the account must be active and its email verified: what
 * is missing, and the way there. Registration comes back to this chat; the verification link
 * opens in another tab, so the account is read again when this one is looked at again.
 */
function HandOff({ chatId }: { chatId: string }) {
  const { t } = useTranslation('chatOnboarding');
  const user = useCurrentUser();
  useQuery({ ...currentUserQuery(requests), enabled: user !== null, refetchOnWindowFocus: 'always' });
  if (!user || (user.is_active && user.email_verified)) return null;
  return (
    <section className={styles.panel} aria-labelledby="hand-off-heading">
      <h2 id="hand-off-heading" className={styles.panelHeading}>
        {t('handOff.heading')}
      </h2>
      {user.is_active ? (
        <>
          <p>{t('handOff.verify')}</p>
          <EmailVerificationBanner />
        </>
      ) : (
        <>
          <p>{t('handOff.registration')}</p>
          <div className={styles.actions}>
            <Button asChild>
              <Link to="/registration-onboarding" search={{ chat: chatId }}>
                {t('handOff.completeRegistration')}
              </Link>
            </Button>
          </div>
        </>
      )}
    </section>
  );
}

function MessageView({
  event,
  choicesEnabled,
  choose,
}: {
  event: Event;
  choicesEnabled: boolean;
  choose: (choice: string) => void;
}) {
  const { t } = useTranslation('chatOnboarding');
  const text = textOf(event);
  if (event.source === 'user')
    return (
      <div className={bubbles.userMessage}>
        <span className={visuallyHidden}>{t('youSaid')}</span>
        {text}
      </div>
    );
  const choices = choicesOf(text);
  return (
    <div className={bubbles.agentMessage}>
      <span className={visuallyHidden}>{t('agentSaid')}</span>
      <Markdown text={withoutChoices(text)} />
      {choices.length > 0 ? (
        <div className={styles.choices} role="group" aria-label={t('choices')}>
          {choices.map((choice) => (
            <Button key={choice} size="sm" tone="secondary" disabled={!choicesEnabled} onClick={() => choose(choice)}>
              {choice}
            </Button>
          ))}
        </div>
      ) : null}
    </div>
  );
}

function FormPanel({ form, chat, busy }: { form: ChatForm; chat: ChatActor; busy: boolean }) {
  const { t } = useTranslation('chatOnboarding');
  const cancel = () => chat.send({ type: 'CANCEL_FORM', form });
  const panel = (children: ReactNode, submit: () => void) => (
    <form
      className={styles.panel}
      aria-label={t(`${form}.heading`)}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <h2 className={styles.panelHeading}>{t(`${form}.heading`)}</h2>
      {children}
      <div className={styles.actions}>
        <Button type="button" tone="ghost" disabled={busy} onClick={cancel}>
          {t('cancel')}
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? t(`${form}.submitting`) : t(`${form}.submit`)}
        </Button>
      </div>
    </form>
  );
  if (form === 'signup') return <SignUpFields chat={chat} busy={busy} panel={panel} />;
  if (form === 'login') return <LogInFields chat={chat} busy={busy} panel={panel} />;
  return <UploadFields chat={chat} busy={busy} panel={panel} />;
}

type Panel = (children: ReactNode, submit: () => void) => ReactNode;

/** A form's text fields: their values, and each field's props (required, held while it is sent). */
function useTextFields<TName extends string>(names: readonly TName[], busy: boolean) {
  const [values, setValues] = useState(
    () => Object.fromEntries(names.map((name) => [name, ''])) as Record<TName, string>,
  );
  const field = (name: TName) => ({
    name,
    value: values[name],
    required: true,
    disabled: busy,
    onChange: (event: { target: { value: string } }) => setValues({ ...values, [name]: event.target.value }),
  });
  return { values, field };
}

function SignUpFields({ chat, busy, panel }: { chat: ChatActor; busy: boolean; panel: Panel }) {
  const { t } = useTranslation('chatOnboarding');
  const { values, field } = useTextFields(['name', 'email', 'password'], busy);
  return panel(
    <>
      <TextField label={t('signup.name')} autoComplete="name" {...field('name')} />
      <TextField label={t('signup.email')} type="email" autoComplete="email" {...field('email')} />
      <TextField label={t('signup.password')} type="password" autoComplete="new-password" {...field('password')} />
    </>,
    () =>
      chat.send({
        type: 'SIGN_UP',
        details: { name: values.name.trim(), email: values.email.trim(), password: values.password },
      }),
  );
}

function LogInFields({ chat, busy, panel }: { chat: ChatActor; busy: boolean; panel: Panel }) {
  const { t } = useTranslation('chatOnboarding');
  const { values, field } = useTextFields(['email', 'password'], busy);
  return panel(
    <>
      <TextField label={t('login.email')} type="email" autoComplete="email" {...field('email')} />
      <TextField label={t('login.password')} type="password" autoComplete="current-password" {...field('password')} />
    </>,
    () => chat.send({ type: 'LOG_IN', details: { email: values.email.trim(), password: values.password } }),
  );
}

function UploadFields({ chat, busy, panel }: { chat: ChatActor; busy: boolean; panel: Panel }) {
  const { t } = useTranslation(['chatOnboarding', 'chat']);
  const [files, setFiles] = useState<File[]>([]);
  const [error, setError] = useState<UploadError | null>(null);
  // The chat's upload rules (spec §5) on picked files.
  const pick = (picked: File[]) => {
    const checked = validateFiles(picked);
    setError(checked.ok ? null : checked.error);
    setFiles(checked.ok ? [...checked.files, ...checked.images] : []);
  };
  return panel(
    <>
      <label>
        {t('upload.files')}{' '}
        <input type="file" multiple disabled={busy} onChange={(event) => pick([...(event.target.files ?? [])])} />
      </label>
      {files.length > 0 ? (
        <ul className={styles.fileList} aria-label={t('upload.chosen')}>
          {files.map((file) => (
            <li key={file.name}>{file.name}</li>
          ))}
        </ul>
      ) : null}
      {error ? (
        <p role="alert" className={styles.status}>
          {t('chat:upload.error', { message: t(`chat:${error.key}`, 'params' in error ? error.params : {}) })}
        </p>
      ) : null}
    </>,
    () => {
      if (files.length === 0) return setError({ key: 'upload.noFiles' });
      chat.send({ type: 'UPLOAD', files });
    },
  );
}

function MessageInput({ disabled, send }: { disabled: boolean; send: (text: string) => void }) {
  const { t } = useTranslation('chatOnboarding');
  const [text, setText] = useState('');
  const submit = () => {
    if (disabled || text.trim() === '') return;
    send(text);
    setText('');
  };
  return (
    <form
      className={styles.form}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <MessageTextarea
        value={text}
        aria-label={t('inputLabel')}
        placeholder={t('placeholder')}
        onChange={(event) => setText(event.target.value)}
        onEnter={(key) => enterKeyIntent(key) === 'send' && (submit(), true)}
      />
      <Button type="submit" disabled={disabled || text.trim() === ''}>
        {t('send')}
      </Button>
    </form>
  );
}
