import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { selectAuthDialog } from '../../../machines/session.ts';
import { SessionContext } from '../../app/session.ts';
import { Dialog, lazyRetrying } from '../../ui/index.ts';

// The forms and their machines load when the dialog first opens, not with every page.
const SignInForm = lazyRetrying(() => import('./SignInForm.tsx').then((m) => ({ default: m.SignInForm })));
const SignUpForm = lazyRetrying(() => import('./SignUpForm.tsx').then((m) => ({ default: m.SignUpForm })));

/** The sign-in / sign-up dialog; the session decides whether it is open and which form it shows. */
export function AuthDialog() {
  const { t } = useTranslation(['auth', 'common']);
  const session = SessionContext.useActorRef();
  const dialog = SessionContext.useSelector(selectAuthDialog);
  const copy = dialog === 'signUp' ? 'signUp' : 'signIn';
  return (
    <Dialog
      open={dialog !== 'closed'}
      onOpenChange={(open) => {
        if (!open) session.send({ type: 'CLOSE_DIALOG' });
      }}
      title={t(`${copy}.title`)}
      description={t(`${copy}.description`)}
      closeLabel={t('common:dialog.close')}
    >
      <Suspense fallback={null}>
        {dialog === 'signIn' ? <SignInForm /> : null}
        {dialog === 'signUp' ? <SignUpForm /> : null}
      </Suspense>
    </Dialog>
  );
}
