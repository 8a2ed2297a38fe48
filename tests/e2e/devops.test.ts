import { describe, expect, it } from 'vitest';
import { browserMissing, seriousAccessibilityViolations } from '../support/browser.ts';
import { browserSuite, createOssConversation, pagesWithoutErrors } from '../support/browser-suite.ts';
import { waitFor } from '../support/conversations.ts';
import { FakeLlm, reply, type ModelRequest } from '../support/fake-llm/index.ts';
import { chooseMenuItem, menuBar } from '../support/workspace-page.ts';

// The DevOps agent in Chromium against the real server (self-hosted, deploying on this machine),
// its model the fake one: the developer preset shows the DevOps tab, which starts the workflow;
// the agent writes an app, proposes a plan with its price, deploys after the user's yes; Window →
// App → Staging opens the deployed app; the Deployments dialog lists it with its cost and deletes
// it; the workflow's completion disables the input.

const llm = new FakeLlm('fake-model');
/** The DevOps agent's model calls (the chat agent's have other tools). */
const devops = (request: ModelRequest) => JSON.stringify(request.tools ?? []).includes('"propose_deployment"');
const SERVER_JS =
  "require('node:http').createServer((q, s) => s.end('<h1>Todo app</h1>')).listen(Number(process.env.PORT));";

describe.skipIf(browserMissing())('the DevOps agent in the browser', () => {
  const suite = browserSuite({ mode: 'oss', llm });
  const openPage = pagesWithoutErrors();

  it(
    'deploys the app from the DevOps tab after the user agreed, opens it from App → Staging, and deletes it from the Deployments dialog',
    { timeout: 180_000 },
    async () => {
      const { server, browser } = suite;
      const conversationId = await createOssConversation(server);

      llm.enqueue(reply.text('Hello! I deploy the app in your workspace. **What shall I deploy?**', { when: devops }));
      const page = await openPage(browser);
      await page.goto(`${server.url}/experiment/conversations/${conversationId}`);
      await chooseMenuItem(page, 'Layout', 'Developer');
      // The preset puts the DevOps agent beside the chat, in the same tile.
      await page.getByRole('tab', { name: 'DevOps Agent', exact: true }).click();
      const tab = page.getByRole('region', { name: 'DevOps Agent' });
      // The workflow starts by itself once the runtime is ready; the reply's markdown is rendered.
      await tab.getByText('What shall I deploy?').waitFor({ timeout: 60_000 });
      // Markdown renders once its code has loaded, after the first paint.
      await tab.locator('strong', { hasText: 'What shall I deploy?' }).waitFor();
      expect(await tab.locator('strong', { hasText: 'What shall I deploy?' }).count()).toBe(1);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);

      llm.enqueue(
        reply.toolCall(
          'execute_bash',
          { command: `mkdir -p todo && cat > todo/server.js <<'JS'\n${SERVER_JS}\nJS` },
          { when: devops },
        ),
        reply.toolCall(
          'propose_deployment',
          {
            name: 'todo-staging',
            environment: 'staging',
            directory: 'todo',
            start: 'node server.js',
            port: 8080,
            size: 'local',
          },
          { when: devops },
        ),
        reply.text('I will run todo/ as **todo-staging** on this server for $0.00/hour. Shall I deploy it?', {
          when: devops,
        }),
      );
      const input = tab.getByRole('textbox', { name: 'Message to the DevOps agent' });
      await input.fill('Deploy my todo app to staging');
      await input.press('Enter');
      await tab.getByText('Deploy my todo app to staging').waitFor();
      await tab.getByText('Shall I deploy it?').waitFor({ timeout: 60_000 });

      llm.enqueue(
        reply.toolCall('deploy', { name: 'todo-staging' }, { when: devops }),
        reply.text('todo-staging is up and answering. It costs $0.00/hour.', { when: devops }),
      );
      await input.fill('Yes');
      await input.press('Enter');
      await tab.getByText('todo-staging is up and answering.').waitFor({ timeout: 90_000 });

      // Window → App → Staging opens the deployed app in a browser tab of its own.
      const opened = page.context().waitForEvent('page');
      await menuBar(page).getByRole('button', { name: 'Window', exact: true }).click();
      await page.getByRole('menuitem', { name: 'App environments', exact: true }).click();
      const staging = page.getByRole('menuitem', { name: 'Staging' });
      await waitFor(
        () => staging.getAttribute('aria-disabled'),
        (disabled) => disabled !== 'true',
        10_000,
        'App → Staging to be enabled',
      );
      await staging.click();
      const app = await opened;
      await app.getByRole('heading', { name: 'Todo app' }).waitFor();
      await app.close();

      // File → Deployments lists it with its size, region and cost; Delete behind 'Delete Droplet' stops it.
      await chooseMenuItem(page, 'File', 'Deployments');
      const dialog = page.getByRole('dialog', { name: 'Infrastructure Deployments' });
      const row = dialog.getByRole('row').filter({ hasText: 'local' });
      await row.first().waitFor();
      expect(await row.first().innerText()).toContain('$0.00');
      await dialog.getByText('Total cost: $0.00').waitFor();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Delete todo-staging' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete Droplet' });
      await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
      await dialog.getByText('No deployments yet').waitFor();
      const deployedUrl = await waitFor(
        async () =>
          (
            (await (await fetch(`${server.url}/api/deployments/${conversationId}`)).json()) as {
              deployments: unknown[];
            }
          ).deployments.length,
        (count) => count === 0,
        5_000,
        'the deployment to be gone',
      );
      expect(deployedUrl).toBe(0);
      await page.keyboard.press('Escape');

      // The agent completes the workflow: a banner, and the input takes no more messages.
      llm.enqueue(
        reply.toolCall('complete_workflow', { message: 'All done: nothing is running now.' }, { when: devops }),
      );
      await input.fill('Thanks, that is all');
      await input.press('Enter');
      await tab.getByText('All done: nothing is running now.').waitFor({ timeout: 60_000 });
      await tab.getByText('The DevOps workflow is complete.').waitFor();
      expect(await input.isDisabled()).toBe(true);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);

      // After a reload the tab shows the session's history, complete.
      await page.reload();
      await chooseMenuItem(page, 'Layout', 'Developer');
      await page.getByRole('tab', { name: 'DevOps Agent', exact: true }).click();
      await tab.getByText('All done: nothing is running now.').waitFor({ timeout: 60_000 });
      await tab.getByText('Deploy my todo app to staging').waitFor();
      await tab.getByText('The DevOps workflow is complete.').waitFor();
      expect(await input.isDisabled()).toBe(true);
    },
  );
});
