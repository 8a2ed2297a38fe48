import { useTranslation } from 'react-i18next';
import { selectAuthDialog } from '../../../machines/session.ts';
import { SessionContext } from '../../app/session.ts';
import { Dialog } from '../../ui/index.ts';
import { SignInForm } from './SignInForm.tsx';
import { SignUpForm } from './SignUpForm.tsx';

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
      {dialog === 'signIn' ? <SignInForm /> : null}
      {dialog === 'signUp' ? <SignUpForm /> : null}
    </Dialog>
  );
}
