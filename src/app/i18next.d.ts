import type affiliate from '../../locales/en/affiliate.json';
import type auth from '../../locales/en/auth.json';
import type billing from '../../locales/en/billing.json';
import type chat from '../../locales/en/chat.json';
import type chatOnboarding from '../../locales/en/chatOnboarding.json';
import type common from '../../locales/en/common.json';
import type conversations from '../../locales/en/conversations.json';
import type deployments from '../../locales/en/deployments.json';
import type landing from '../../locales/en/landing.json';
import type home from '../../locales/en/home.json';
import type legal from '../../locales/en/legal.json';
import type microagents from '../../locales/en/microagents.json';
import type onboarding from '../../locales/en/onboarding.json';
import type settings from '../../locales/en/settings.json';
import type tabs from '../../locales/en/tabs.json';
import type workspace from '../../locales/en/workspace.json';

// Translation keys are checked against the English source files.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: {
      common: typeof common;
      auth: typeof auth;
      onboarding: typeof onboarding;
      home: typeof home;
      legal: typeof legal;
      conversations: typeof conversations;
      workspace: typeof workspace;
      chat: typeof chat;
      tabs: typeof tabs;
      settings: typeof settings;
      billing: typeof billing;
      landing: typeof landing;
      affiliate: typeof affiliate;
      microagents: typeof microagents;
      deployments: typeof deployments;
      chatOnboarding: typeof chatOnboarding;
    };
  }
}
