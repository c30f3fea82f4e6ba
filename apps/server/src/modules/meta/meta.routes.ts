import type { DemoDataState } from '@rayo/shared';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { App } from '../../http/app-type.ts';
import { registerCall } from '../../http/contract.ts';
import { checkReadiness } from './meta.service.ts';

export function registerMetaRoutes(
  app: App,
  deps: { db: Db; config: Config; demoData?: { state: DemoDataState }; lifecycle?: { draining: boolean } },
): void {
  registerCall(app, 'GET /api/health', async () => ({ status: 'ok' as const }));

  registerCall(app, 'GET /api/ready', async (request) => {
    await checkReadiness(deps, request.log);
    return { status: 'ready' as const, ...(deps.demoData && { demoData: deps.demoData.state }) };
  });

  registerCall(app, 'GET /api/public-config', async () => ({
    supportEmail: deps.config.supportEmail,
    devnet: deps.config.lightning.backend === 'devnet',
    ecwid: {
      sdkUrl: deps.config.shops.ecwidSdkUrl,
      cssUrl: deps.config.shops.ecwidCssUrl,
      appId: deps.config.shops.ecwidAppId,
    },
  }));
}
