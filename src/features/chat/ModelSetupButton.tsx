import { useParams } from '@tanstack/react-router';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClientConfig } from '../../app/hooks.ts';
import { Button, lazyRetrying } from '../../ui/index.ts';
import { conversationRequests } from '../conversations/index.ts';

// The model form loads with the modal, when it first opens, not with this page.
const AiSettingsModal = lazyRetrying(() =>
  import('../settings/index.ts').then((settings) => ({ default: settings.AiSettingsModal })),
);

/**
 * Under the chat's "no model configured" message of a self-hosted installation: opens the AI
 * settings modal; saving there ends this conversation's session, so the next message starts it
 * with the new model. (On the hosted service the operator configures the model.)
 */
export function ModelSetupButton() {
  const { t } = useTranslation('common');
  const ossMode = useClientConfig()?.APP_MODE === 'oss';
  const { conversationId } = useParams({ strict: false });
  const [open, setOpen] = useState(false);
  if (!ossMode) return null;
  return (
    <>
      <Button size="sm" onClick={() => setOpen(true)}>
        {t('aiSettings.open')}
      </Button>
      {open ? (
        <Suspense fallback={null}>
          <AiSettingsModal
            open
            onClose={() => setOpen(false)}
            {...(conversationId && {
              endSession: () => conversationRequests.stop(conversationId).then(() => undefined),
            })}
          />
        </Suspense>
      ) : null}
    </>
  );
}
