import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { selectSignInAvailable } from '../../../machines/session.ts';
import { useCurrentUser } from '../../app/hooks.ts';
import { SessionContext } from '../../app/session.ts';
import {
  Avatar,
  Button,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../ui/index.ts';
import * as styles from './auth.css.ts';
import { CreditIndicator } from './CreditIndicator.tsx';

/** The header's account corner: the profile menu when signed in, Sign in / Sign up otherwise; nothing in oss mode. */
export function AccountControls() {
  const { t } = useTranslation();
  const session = SessionContext.useActorRef();
  const signInAvailable = SessionContext.useSelector(selectSignInAvailable);
  const user = useCurrentUser();
  const navigate = useNavigate();

  if (!signInAvailable) return null;
  if (user) {
    return (
      <div className={styles.headerControls}>
        <CreditIndicator balance={user.credits.balance} />
        <DropdownMenu>
          <DropdownMenuTrigger>
            <Button tone="ghost" size="sm" aria-label={t('header.accountMenu')}>
              <Avatar name={user.fullname || user.email} />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent>
            <DropdownMenuLabel>{user.email}</DropdownMenuLabel>
            <DropdownMenuSeparator />
            <DropdownMenuItem onSelect={() => void navigate({ to: '/profile' })}>
              {t('header.profile')}
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => void navigate({ to: '/settings' })}>
              {t('header.settings')}
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => session.send({ type: 'LOG_OUT' })}>{t('header.logout')}</DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
    );
  }
  return (
    <div className={styles.headerControls}>
      <Button tone="ghost" size="sm" onClick={() => session.send({ type: 'OPEN_SIGN_IN' })}>
        {t('header.signIn')}
      </Button>
      <Button size="sm" onClick={() => session.send({ type: 'OPEN_SIGN_UP' })}>
        {t('header.signUp')}
      </Button>
    </div>
  );
}
